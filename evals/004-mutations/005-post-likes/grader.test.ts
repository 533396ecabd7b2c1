import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("like is idempotent per user and post", async () => {
  const t = convexTest(schema, modules);
  const p = await t.mutation(api.likes.createPost, { title: "hello" });
  expect(await t.mutation(api.likes.like, { postId: p, userId: "ann" })).toBe(true);
  expect(await t.mutation(api.likes.like, { postId: p, userId: "ann" })).toBe(false);
  expect(await t.mutation(api.likes.like, { postId: p, userId: "bob" })).toBe(true);
  expect(await t.query(api.likes.likeCount, { postId: p })).toBe(2);
  const rows = await t.run(async (ctx) => await ctx.db.query("likes").collect());
  expect(rows).toHaveLength(2);
  const liked = await t.run(async (ctx) => await ctx.db.get("posts", rows[0].postId));
  expect(liked?.title).toBe("hello");
});

test("likes never touch the post document", async () => {
  const t = convexTest(schema, modules);
  const p = await t.mutation(api.likes.createPost, { title: "hello" });
  await t.mutation(api.likes.like, { postId: p, userId: "ann" });
  await t.mutation(api.likes.like, { postId: p, userId: "bob" });
  await t.mutation(api.likes.unlike, { postId: p, userId: "ann" });
  const post = await t.run(async (ctx) => await ctx.db.get("posts", p));
  expect(post === null ? [] : Object.keys(post).sort()).toEqual(["_creationTime", "_id", "title"]);
});

test("unlike removes one like and reports whether there was one", async () => {
  const t = convexTest(schema, modules);
  const p = await t.mutation(api.likes.createPost, { title: "a" });
  const q = await t.mutation(api.likes.createPost, { title: "b" });
  await t.mutation(api.likes.like, { postId: p, userId: "ann" });
  await t.mutation(api.likes.like, { postId: q, userId: "ann" });
  expect(await t.mutation(api.likes.unlike, { postId: p, userId: "ann" })).toBe(true);
  expect(await t.mutation(api.likes.unlike, { postId: p, userId: "ann" })).toBe(false);
  expect(await t.query(api.likes.likeCount, { postId: p })).toBe(0);
  expect(await t.query(api.likes.likeCount, { postId: q })).toBe(1);
  expect(await t.query(api.likes.likedBy, { postId: q, userId: "ann" })).toBe(true);
  expect(await t.query(api.likes.likedBy, { postId: p, userId: "ann" })).toBe(false);
  expect(await t.mutation(api.likes.like, { postId: p, userId: "ann" })).toBe(true);
});

test("like rejects a missing post", async () => {
  const t = convexTest(schema, modules);
  const p = await t.mutation(api.likes.createPost, { title: "gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("posts", p);
  });
  await expect(t.mutation(api.likes.like, { postId: p, userId: "ann" })).rejects.toThrow();
  const rows = await t.run(async (ctx) => await ctx.db.query("likes").collect());
  expect(rows).toHaveLength(0);
});
