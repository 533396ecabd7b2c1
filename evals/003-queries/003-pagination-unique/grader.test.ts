import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { FunctionReturnType } from "convex/server";

const modules = import.meta.glob("./convex/**/*.*s");

test("getByEmail finds a user or returns null", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.users.create, { email: "a@x.io", name: "Ann" });
  await t.mutation(api.users.create, { email: "b@x.io", name: "Bob" });
  const user = await t.query(api.users.getByEmail, { email: "a@x.io" });
  expect(user).toMatchObject({ _id: id, email: "a@x.io", name: "Ann" });
  expect(await t.query(api.users.getByEmail, { email: "zzz@x.io" })).toBeNull();
});

test("users.create rejects a duplicate email", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.users.create, { email: "a@x.io", name: "Ann" });
  await expect(t.mutation(api.users.create, { email: "a@x.io", name: "Other" })).rejects.toThrow();
  const users = await t.run(async (ctx) => await ctx.db.query("users").collect());
  expect(users).toHaveLength(1);
  expect(users[0].name).toBe("Ann");
});

test("posts.list paginates newest first across pages", async () => {
  const t = convexTest(schema, modules);
  const authorId = await t.mutation(api.users.create, { email: "a@x.io", name: "Ann" });
  for (let i = 1; i <= 5; i++) {
    await t.mutation(api.posts.create, { authorId, text: `p${i}` });
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  for (;;) {
    const result: FunctionReturnType<typeof api.posts.list> = await t.query(api.posts.list, { paginationOpts: { numItems: 2, cursor } });
    expect(result.page.length).toBeLessThanOrEqual(2);
    seen.push(...result.page.map((p) => p.text));
    pages++;
    if (result.isDone) break;
    cursor = result.continueCursor;
    expect(pages).toBeLessThan(10);
  }
  expect(seen).toEqual(["p5", "p4", "p3", "p2", "p1"]);
});

test("posts.list first page has full documents and isDone false when more remain", async () => {
  const t = convexTest(schema, modules);
  const authorId = await t.mutation(api.users.create, { email: "a@x.io", name: "Ann" });
  await t.mutation(api.posts.create, { authorId, text: "old" });
  await t.mutation(api.posts.create, { authorId, text: "new" });
  await t.mutation(api.posts.create, { authorId, text: "newest" });
  const first = await t.query(api.posts.list, { paginationOpts: { numItems: 2, cursor: null } });
  expect(first.page).toHaveLength(2);
  expect(first.page[0]).toMatchObject({ authorId, text: "newest" });
  expect(first.page[1]).toMatchObject({ authorId, text: "new" });
  expect(first.isDone).toBe(false);
  expect(typeof first.continueCursor).toBe("string");
});

test("posts.list rejects missing paginationOpts", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.query(api.posts.list, {} as unknown as { paginationOpts: { numItems: number; cursor: null } }),
  ).rejects.toThrow();
});
