import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("get returns the full document with its system fields", async () => {
  const t = convexTest(schema, modules);
  const before = Date.now();
  const postId = await t.mutation(api.posts.create, { title: "hello" });
  const post = await t.query(api.posts.get, { postId });
  expect(post).not.toBeNull();
  expect(post!._id).toBe(postId);
  expect(post!.title).toBe("hello");
  expect(typeof post!._creationTime).toBe("number");
  expect(post!._creationTime).toBeGreaterThanOrEqual(before - 1000);
  expect(Object.keys(post!).sort()).toEqual(["_creationTime", "_id", "title"]);
});

test("get returns null for a deleted post", async () => {
  const t = convexTest(schema, modules);
  const postId = await t.mutation(api.posts.create, { title: "gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("posts", postId);
  });
  expect(await t.query(api.posts.get, { postId })).toBeNull();
});

test("the schema stores only the title", async () => {
  const t = convexTest(schema, modules);
  const postId = await t.mutation(api.posts.create, { title: "only" });
  const doc = await t.run(async (ctx) => await ctx.db.get("posts", postId));
  expect(Object.keys(doc!).sort()).toEqual(["_creationTime", "_id", "title"]);
});

test("createdSince is inclusive and returns posts oldest first", async () => {
  const t = convexTest(schema, modules);
  const ids = [];
  for (const title of ["a", "b", "c", "d"]) {
    ids.push(await t.mutation(api.posts.create, { title }));
  }
  const second = await t.query(api.posts.get, { postId: ids[1] });
  const since = await t.query(api.posts.createdSince, { since: second!._creationTime });
  expect(since.map((p) => p.title)).toEqual(["b", "c", "d"]);
  expect(since[0]._id).toBe(ids[1]);
  const all = await t.query(api.posts.createdSince, { since: 0 });
  expect(all.map((p) => p.title)).toEqual(["a", "b", "c", "d"]);
  const none = await t.query(api.posts.createdSince, { since: Date.now() + 3_600_000 });
  expect(none).toEqual([]);
});

test("newestTitle returns the most recent title, or null", async () => {
  const t = convexTest(schema, modules);
  expect(await t.query(api.posts.newestTitle, {})).toBeNull();
  await t.mutation(api.posts.create, { title: "first" });
  await t.mutation(api.posts.create, { title: "second" });
  expect(await t.query(api.posts.newestTitle, {})).toBe("second");
});
