import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

afterEach(() => {
  vi.useRealTimers();
});

test("signUp inserts the user and only schedules the welcome email", async () => {
  vi.useFakeTimers();
  const t = convexTest(schema, modules);
  const userId = await t.mutation(api.users.signUp, { name: "Ada", email: "ada@example.com" });
  expect(await t.run(async (ctx) => await ctx.db.get("users", userId))).toMatchObject({ name: "Ada", email: "ada@example.com" });
  // nothing sent synchronously
  expect(await t.query(api.emails.listOutbox, {})).toEqual([]);
  const scheduled = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0].name).toMatch(/^emails(\.js)?:sendWelcome$/);
  expect(scheduled[0].args).toEqual([{ userId }]);
  expect(scheduled[0].scheduledTime).toBeLessThanOrEqual(Date.now());
  await t.finishAllScheduledFunctions(vi.runAllTimers);
});

test("after the scheduler runs, the outbox holds one welcome email per user", async () => {
  vi.useFakeTimers();
  const t = convexTest(schema, modules);
  const ada = await t.mutation(api.users.signUp, { name: "Ada", email: "ada@example.com" });
  await t.mutation(api.users.signUp, { name: "Bob", email: "bob@example.com" });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.emails.listOutbox, {})).toEqual([
    { to: "ada@example.com", subject: "Welcome, Ada!" },
    { to: "bob@example.com", subject: "Welcome, Bob!" },
  ]);
  const rows = await t.run(async (ctx) => await ctx.db.query("outbox").collect());
  expect(rows[0].userId).toBe(ada);
});

test("sendWelcome does nothing for a deleted user", async () => {
  const t = convexTest(schema, modules);
  const userId = await t.run(async (ctx) => await ctx.db.insert("users", { name: "Gone", email: "g@example.com" }));
  await t.run(async (ctx) => await ctx.db.delete("users", userId));
  expect(await t.mutation(internal.emails.sendWelcome, { userId })).toBeNull();
  expect(await t.query(api.emails.listOutbox, {})).toEqual([]);
});
