import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { Id } from "./convex/_generated/dataModel";

const modules = import.meta.glob("./convex/**/*.*s");

test("getBookWithAuthor joins the author's name", async () => {
  const t = convexTest(schema, modules);
  const authorId = await t.mutation(api.library.createAuthor, { name: "Ursula" });
  const bookId = await t.mutation(api.library.createBook, { title: "The Dispossessed", authorId });
  expect(await t.query(api.library.getBookWithAuthor, { bookId })).toEqual({
    title: "The Dispossessed",
    authorName: "Ursula",
  });
});

test("getBookWithAuthor returns null for a missing book", async () => {
  const t = convexTest(schema, modules);
  const authorId = await t.mutation(api.library.createAuthor, { name: "A" });
  const bookId = await t.mutation(api.library.createBook, { title: "T", authorId });
  await t.run(async (ctx) => {
    await ctx.db.delete("books", bookId);
  });
  expect(await t.query(api.library.getBookWithAuthor, { bookId })).toBeNull();
});

test("createBook rejects an author that does not exist", async () => {
  const t = convexTest(schema, modules);
  const authorId = await t.mutation(api.library.createAuthor, { name: "Gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("authors", authorId);
  });
  await expect(
    t.mutation(api.library.createBook, { title: "Orphan", authorId }),
  ).rejects.toThrow();
  const books = await t.run(async (ctx) => await ctx.db.query("books").collect());
  expect(books).toEqual([]);
});

test("listBooksByAuthor returns only that author's books, oldest first", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.library.createAuthor, { name: "A" });
  const b = await t.mutation(api.library.createAuthor, { name: "B" });
  await t.mutation(api.library.createBook, { title: "a1", authorId: a });
  await t.mutation(api.library.createBook, { title: "b1", authorId: b });
  await t.mutation(api.library.createBook, { title: "a2", authorId: a });
  expect(await t.query(api.library.listBooksByAuthor, { authorId: a })).toEqual(["a1", "a2"]);
  expect(await t.query(api.library.listBooksByAuthor, { authorId: b })).toEqual(["b1"]);
});

test("ID arguments of the wrong table are rejected", async () => {
  const t = convexTest(schema, modules);
  const authorId = await t.mutation(api.library.createAuthor, { name: "A" });
  const bookId = await t.mutation(api.library.createBook, { title: "T", authorId });
  await expect(
    t.query(api.library.getBookWithAuthor, { bookId: authorId as unknown as Id<"books"> }),
  ).rejects.toThrow();
  await expect(
    t.query(api.library.listBooksByAuthor, { authorId: bookId as unknown as Id<"authors"> }),
  ).rejects.toThrow();
});
