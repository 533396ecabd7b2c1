import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("feed returns the 5 newest posts with their author names", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.authors.create, { name: "Ann" });
  const bob = await t.mutation(api.authors.create, { name: "Bob" });
  for (let i = 1; i <= 7; i++) {
    await t.mutation(api.posts.create, { authorId: i % 2 === 0 ? bob : ann, title: `p${i}` });
  }
  const feed = await t.query(api.posts.feed, {});
  expect(feed.map((p) => [p.title, p.authorName])).toEqual([
    ["p7", "Ann"],
    ["p6", "Bob"],
    ["p5", "Ann"],
    ["p4", "Bob"],
    ["p3", "Ann"],
  ]);
  expect(Object.keys(feed[0]).sort()).toEqual(["_id", "authorName", "title"]);
});

test("feed shows [deleted] for a post whose author is gone", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.authors.create, { name: "Ann" });
  const gone = await t.mutation(api.authors.create, { name: "Gone" });
  await t.mutation(api.posts.create, { authorId: ann, title: "kept" });
  await t.mutation(api.posts.create, { authorId: gone, title: "orphan" });
  await t.run(async (ctx) => {
    await ctx.db.delete("authors", gone);
  });
  const feed = await t.query(api.posts.feed, {});
  expect(feed.map((p) => [p.title, p.authorName])).toEqual([
    ["orphan", "[deleted]"],
    ["kept", "Ann"],
  ]);
  expect(await t.query(api.posts.feed, {})).toHaveLength(2);
});

test("byAuthor returns the author and only their posts, oldest first", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.authors.create, { name: "Ann" });
  const bob = await t.mutation(api.authors.create, { name: "Bob" });
  await t.mutation(api.posts.create, { authorId: ann, title: "a1" });
  await t.mutation(api.posts.create, { authorId: bob, title: "b1" });
  await t.mutation(api.posts.create, { authorId: ann, title: "a2" });
  const result = await t.query(api.posts.byAuthor, { authorId: ann });
  expect(result?.author).toMatchObject({ _id: ann, name: "Ann" });
  expect(typeof result?.author._creationTime).toBe("number");
  expect(result?.posts.map((p) => p.title)).toEqual(["a1", "a2"]);
  expect(result?.posts[0]).toMatchObject({ authorId: ann, title: "a1" });
  expect(typeof result?.posts[0]._creationTime).toBe("number");
});

test("byAuthor returns null for a missing author; create rejects one", async () => {
  const t = convexTest(schema, modules);
  const gone = await t.mutation(api.authors.create, { name: "Gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("authors", gone);
  });
  expect(await t.query(api.posts.byAuthor, { authorId: gone })).toBeNull();
  await expect(t.mutation(api.posts.create, { authorId: gone, title: "x" })).rejects.toThrow();
  const posts = await t.run(async (ctx) => await ctx.db.query("posts").collect());
  expect(posts).toHaveLength(0);
});
