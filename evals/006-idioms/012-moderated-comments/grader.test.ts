import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

afterEach(() => {
  vi.useRealTimers();
});

async function code(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    const data = (e as { data?: { code?: unknown; message?: unknown } }).data;
    expect(typeof data?.message).toBe("string");
    return data?.code;
  }
  throw new Error("expected the call to throw");
}

function setup() {
  const t = convexTest(schema, modules);
  const ada = t.withIdentity({ name: "Ada", subject: "ada", tokenIdentifier: "test|ada" });
  const bob = t.withIdentity({ name: "Bob", subject: "bob", tokenIdentifier: "test|bob" });
  return { t, ada, bob };
}

test("post stores a trimmed pending comment and schedules moderation", async () => {
  vi.useFakeTimers();
  const { t, ada } = setup();
  const id = await ada.mutation(api.comments.post, { postId: "p1", body: "  Nice post!  " });
  expect(await t.run(async (ctx) => await ctx.db.get("comments", id))).toMatchObject({
    postId: "p1", authorToken: "test|ada", authorName: "Ada", body: "Nice post!", status: "pending",
  });
  expect(await t.query(api.comments.listApproved, { postId: "p1" })).toEqual([]);
  const jobs = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
  expect(jobs).toHaveLength(1);
  expect(jobs[0].name).toMatch(/^comments(\.js)?:moderate$/);
  expect(jobs[0].args).toEqual([{ commentId: id }]);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.comments.listApproved, { postId: "p1" })).toEqual([{ _id: id, authorName: "Ada", body: "Nice post!" }]);
});

test("post validates the caller and the body", async () => {
  const { t, ada } = setup();
  expect(await code(t.mutation(api.comments.post, { postId: "p1", body: "hi" }))).toBe("UNAUTHENTICATED");
  expect(await code(ada.mutation(api.comments.post, { postId: "p1", body: "   " }))).toBe("INVALID_ARGUMENT");
  expect(await code(ada.mutation(api.comments.post, { postId: "p1", body: "x".repeat(281) }))).toBe("INVALID_ARGUMENT");
  expect(await t.run(async (ctx) => await ctx.db.query("comments").collect())).toHaveLength(0);
  vi.useFakeTimers();
  await ada.mutation(api.comments.post, { postId: "p1", body: ` ${"x".repeat(280)} ` });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
});

test("moderation approves or rejects; listApproved is per post, oldest first", async () => {
  vi.useFakeTimers();
  const { t, ada, bob } = setup();
  const a = await ada.mutation(api.comments.post, { postId: "p1", body: "first" });
  await bob.mutation(api.comments.post, { postId: "p1", body: "Buy SPAM now" });
  const c = await bob.mutation(api.comments.post, { postId: "p1", body: "second" });
  await bob.mutation(api.comments.post, { postId: "p2", body: "elsewhere" });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.comments.listApproved, { postId: "p1" })).toEqual([
    { _id: a, authorName: "Ada", body: "first" },
    { _id: c, authorName: "Bob", body: "second" },
  ]);
  const statuses = (await t.run(async (ctx) => await ctx.db.query("comments").collect())).map((x) => x.status);
  expect(statuses).toEqual(["approved", "rejected", "approved", "approved"]);
});

test("moderate ignores missing and already moderated comments", async () => {
  const { t } = setup();
  const id = await t.run(async (ctx) =>
    await ctx.db.insert("comments", { postId: "p", authorToken: "x", authorName: "X", body: "spam", status: "approved" }),
  );
  expect(await t.mutation(internal.comments.moderate, { commentId: id })).toBeNull();
  expect((await t.run(async (ctx) => await ctx.db.get("comments", id)))!.status).toBe("approved");
  await t.run(async (ctx) => await ctx.db.delete("comments", id));
  expect(await t.mutation(internal.comments.moderate, { commentId: id })).toBeNull();
});

test("remove checks the caller, existence and authorship", async () => {
  vi.useFakeTimers();
  const { t, ada, bob } = setup();
  const id = await ada.mutation(api.comments.post, { postId: "p1", body: "mine" });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await code(t.mutation(api.comments.remove, { commentId: id }))).toBe("UNAUTHENTICATED");
  expect(await code(bob.mutation(api.comments.remove, { commentId: id }))).toBe("FORBIDDEN");
  expect(await ada.mutation(api.comments.remove, { commentId: id })).toBeNull();
  expect(await t.run(async (ctx) => await ctx.db.get("comments", id))).toBeNull();
  expect(await code(ada.mutation(api.comments.remove, { commentId: id }))).toBe("NOT_FOUND");
});
