import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  const le = await t.mutation(api.library.createAuthor, { name: "Le Guin" });
  const ca = await t.mutation(api.library.createAuthor, { name: "Calvino" });
  const b1 = await t.mutation(api.library.createBook, { title: "The Dispossessed", authorId: le });
  const b2 = await t.mutation(api.library.createBook, { title: "Invisible Cities", authorId: ca });
  const b3 = await t.mutation(api.library.createBook, { title: "A Wizard of Earthsea", authorId: le });
  return { le, ca, b1, b2, b3 };
}

test("authorWithBooks returns the name and the author's titles in creation order", async () => {
  const t = convexTest(schema, modules);
  const { le, ca } = await seed(t);
  expect(await t.query(api.library.authorWithBooks, { authorId: le })).toEqual({
    name: "Le Guin",
    titles: ["The Dispossessed", "A Wizard of Earthsea"],
  });
  expect(await t.query(api.library.authorWithBooks, { authorId: ca })).toEqual({
    name: "Calvino",
    titles: ["Invisible Cities"],
  });
});

test("authorWithBooks returns null for a missing author", async () => {
  const t = convexTest(schema, modules);
  const gone = await t.mutation(api.library.createAuthor, { name: "Nobody" });
  await t.run(async (ctx) => {
    await ctx.db.delete("authors", gone);
  });
  expect(await t.query(api.library.authorWithBooks, { authorId: gone })).toBeNull();
});

test("titlesByIds keeps the given order and gives null for deleted books", async () => {
  const t = convexTest(schema, modules);
  const { b1, b2, b3 } = await seed(t);
  await t.run(async (ctx) => {
    await ctx.db.delete("books", b2);
  });
  expect(await t.query(api.library.titlesByIds, { bookIds: [b3, b2, b1] })).toEqual([
    "A Wizard of Earthsea",
    null,
    "The Dispossessed",
  ]);
  expect(await t.query(api.library.titlesByIds, { bookIds: [] })).toEqual([]);
});

test("tagBook links tags and tagNames lists them in attach order", async () => {
  const t = convexTest(schema, modules);
  const { b1, b2 } = await seed(t);
  const scifi = await t.mutation(api.library.createTag, { name: "sci-fi" });
  const classic = await t.mutation(api.library.createTag, { name: "classic" });
  expect(await t.mutation(api.library.tagBook, { bookId: b1, tagId: classic })).toBeNull();
  await t.mutation(api.library.tagBook, { bookId: b1, tagId: scifi });
  await t.mutation(api.library.tagBook, { bookId: b2, tagId: classic });
  expect(await t.query(api.library.tagNames, { bookId: b1 })).toEqual(["classic", "sci-fi"]);
  expect(await t.query(api.library.tagNames, { bookId: b2 })).toEqual(["classic"]);
  const links = await t.run(async (ctx) => await ctx.db.query("bookTags").collect());
  expect(links).toHaveLength(3);
});
