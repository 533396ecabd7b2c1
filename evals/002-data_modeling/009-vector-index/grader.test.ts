import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  const ids = [];
  ids.push(await t.mutation(api.snippets.add, { text: "x-axis", tag: "a", embedding: [1, 0, 0] }));
  ids.push(await t.mutation(api.snippets.add, { text: "near-x", tag: "a", embedding: [0.9, 0.1, 0] }));
  ids.push(await t.mutation(api.snippets.add, { text: "y-axis", tag: "a", embedding: [0, 1, 0] }));
  ids.push(await t.mutation(api.snippets.add, { text: "other-x", tag: "b", embedding: [1, 0, 0] }));
  return ids;
}

test("similar returns the nearest snippets of the tag, most similar first", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const results = await t.action(api.snippets.similar, { embedding: [1, 0, 0], tag: "a", limit: 2 });
  expect(results.map((r) => r.text)).toEqual(["x-axis", "near-x"]);
  expect(results[0].score).toBeCloseTo(1, 6);
  expect(results[1].score).toBeLessThan(results[0].score);
});

test("similar only returns snippets with the requested tag", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const results = await t.action(api.snippets.similar, { embedding: [1, 0, 0], tag: "b", limit: 10 });
  expect(results.map((r) => r.text)).toEqual(["other-x"]);
  const all = await t.action(api.snippets.similar, { embedding: [0, 1, 0], tag: "a", limit: 10 });
  expect(all.map((r) => r.text)).toEqual(["y-axis", "near-x", "x-axis"]);
  expect(Object.keys(all[0]).sort()).toEqual(["score", "text"]);
});

test("add rejects embeddings without 3 numbers", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.snippets.add, { text: "bad", tag: "a", embedding: [1, 2] }),
  ).rejects.toThrow();
  const docs = await t.run(async (ctx) => await ctx.db.query("snippets").collect());
  expect(docs).toEqual([]);
});

test("getTexts keeps the order and skips deleted snippets", async () => {
  const t = convexTest(schema, modules);
  const ids = await seed(t);
  await t.run(async (ctx) => {
    await ctx.db.delete("snippets", ids[1]);
  });
  expect(await t.query(internal.snippets.getTexts, { ids: [ids[2], ids[1], ids[0]] })).toEqual([
    "y-axis",
    "x-axis",
  ]);
});

test("the vector index is declared on the embedding with the tag filter", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const hits = await t.action(async (ctx) =>
    ctx.vectorSearch("snippets", "by_embedding", {
      vector: [0, 1, 0],
      limit: 1,
      filter: (q) => q.eq("tag", "a"),
    }),
  );
  expect(hits).toHaveLength(1);
});
