import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  await t.mutation(api.articles.publish, {
    title: "Rust tips",
    body: "borrow checker tricks for beginners",
    category: "code",
  });
  await t.mutation(api.articles.publish, {
    title: "Sourdough",
    body: "a starter needs flour and water",
    category: "food",
  });
  await t.mutation(api.articles.publish, {
    title: "Go tips",
    body: "goroutines for beginners",
    category: "code",
  });
  await t.mutation(api.articles.publish, {
    title: "Pasta",
    body: "fresh pasta for beginners needs flour",
    category: "food",
  });
}

test("search finds articles whose body matches", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const hits = await t.query(api.articles.search, { text: "beginners" });
  expect([...hits].sort()).toEqual(["Go tips", "Pasta", "Rust tips"]);
  expect(await t.query(api.articles.search, { text: "goroutines" })).toEqual(["Go tips"]);
  expect(await t.query(api.articles.search, { text: "zebra" })).toEqual([]);
});

test("search filters by category when given", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const code = await t.query(api.articles.search, { text: "beginners", category: "code" });
  expect([...code].sort()).toEqual(["Go tips", "Rust tips"]);
  expect(await t.query(api.articles.search, { text: "flour", category: "code" })).toEqual([]);
  const food = await t.query(api.articles.search, { text: "flour", category: "food" });
  expect([...food].sort()).toEqual(["Pasta", "Sourdough"]);
});

test("search searches the body, not the title", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.articles.search, { text: "Sourdough" })).toEqual([]);
});

test("search returns at most 10 titles", async () => {
  const t = convexTest(schema, modules);
  for (let i = 0; i < 12; i++) {
    await t.mutation(api.articles.publish, { title: `t${i}`, body: "common words", category: "c" });
  }
  expect(await t.query(api.articles.search, { text: "common" })).toHaveLength(10);
});

test("countInCategory counts through the by_category index", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.articles.countInCategory, { category: "code" })).toBe(2);
  expect(await t.query(api.articles.countInCategory, { category: "none" })).toBe(0);
  const viaIndex = await t.run(async (ctx) =>
    ctx.db.query("articles").withIndex("by_category", (q) => q.eq("category", "food")).collect(),
  );
  expect(viaIndex).toHaveLength(2);
});

test("the search index is declared with its filter field", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const rows = await t.run(async (ctx) =>
    ctx.db
      .query("articles")
      .withSearchIndex("search_body", (q) => q.search("body", "flour").eq("category", "food"))
      .collect(),
  );
  expect(rows).toHaveLength(2);
});
