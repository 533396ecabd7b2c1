import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("a new post has no comments and a null lastCommentAt", async () => {
  const t = convexTest(schema, modules);
  const postId = await t.mutation(api.posts.createPost, { title: "hi" });
  expect(await t.query(api.posts.getPost, { postId })).toEqual({
    title: "hi",
    commentCount: 0,
    lastCommentAt: null,
  });
  const doc = await t.run(async (ctx) => await ctx.db.get("posts", postId));
  expect(doc !== null && "lastCommentAt" in doc).toBe(true);
  expect(doc?.lastCommentAt).toBeNull();
});

test("addComment updates the counter and lastCommentAt", async () => {
  const t = convexTest(schema, modules);
  const postId = await t.mutation(api.posts.createPost, { title: "p" });
  await t.mutation(api.posts.addComment, { postId, text: "one" });
  const second = await t.mutation(api.posts.addComment, { postId, text: "two" });
  const comment = await t.run(async (ctx) => await ctx.db.get("comments", second));
  expect(await t.query(api.posts.getPost, { postId })).toEqual({
    title: "p",
    commentCount: 2,
    lastCommentAt: comment!._creationTime,
  });
  expect(await t.query(api.posts.listComments, { postId })).toEqual(["one", "two"]);
});

test("getPost reads the stored counter", async () => {
  const t = convexTest(schema, modules);
  const postId = await t.run(async (ctx) =>
    ctx.db.insert("posts", { title: "seeded", commentCount: 41, lastCommentAt: 5 }),
  );
  expect(await t.query(api.posts.getPost, { postId })).toEqual({
    title: "seeded",
    commentCount: 41,
    lastCommentAt: 5,
  });
});

test("deleteComment decrements the counter of the right post", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.posts.createPost, { title: "a" });
  const b = await t.mutation(api.posts.createPost, { title: "b" });
  const c1 = await t.mutation(api.posts.addComment, { postId: a, text: "a1" });
  await t.mutation(api.posts.addComment, { postId: a, text: "a2" });
  await t.mutation(api.posts.addComment, { postId: b, text: "b1" });
  const before = await t.query(api.posts.getPost, { postId: a });
  expect(await t.mutation(api.posts.deleteComment, { commentId: c1 })).toBeNull();
  expect(await t.query(api.posts.getPost, { postId: a })).toEqual({
    title: "a",
    commentCount: 1,
    lastCommentAt: before!.lastCommentAt,
  });
  expect((await t.query(api.posts.getPost, { postId: b }))?.commentCount).toBe(1);
  expect(await t.query(api.posts.listComments, { postId: a })).toEqual(["a2"]);
  await expect(t.mutation(api.posts.deleteComment, { commentId: c1 })).rejects.toThrow();
});

test("addComment on a missing post throws and writes nothing", async () => {
  const t = convexTest(schema, modules);
  const postId = await t.mutation(api.posts.createPost, { title: "gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("posts", postId);
  });
  await expect(t.mutation(api.posts.addComment, { postId, text: "x" })).rejects.toThrow();
  const comments = await t.run(async (ctx) => await ctx.db.query("comments").collect());
  expect(comments).toEqual([]);
});
