import { convexTest } from "convex-test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

const NOW = Date.UTC(2030, 5, 1, 9, 0, 0);
const IN_ONE_HOUR = NOW + 3_600_000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

async function jobs(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
}

test("create stores a scheduled reminder and schedules deliver at remindAt", async () => {
  const t = convexTest(schema, modules);
  const reminderId = await t.mutation(api.reminders.create, { text: "stand up", remindAt: IN_ONE_HOUR });
  expect(await t.query(api.reminders.get, { reminderId })).toEqual({ text: "stand up", remindAt: IN_ONE_HOUR, status: "scheduled" });
  const scheduled = await jobs(t);
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0].name).toMatch(/^reminders(\.js)?:deliver$/);
  expect(scheduled[0].args).toEqual([{ reminderId }]);
  expect(scheduled[0].scheduledTime).toBe(IN_ONE_HOUR);
  const doc = await t.run(async (ctx) => await ctx.db.get("reminders", reminderId));
  expect(doc!.jobId).toBe(scheduled[0]._id);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
});

test("the reminder is sent only when its time comes", async () => {
  const t = convexTest(schema, modules);
  const reminderId = await t.mutation(api.reminders.create, { text: "drink water", remindAt: IN_ONE_HOUR });
  vi.advanceTimersByTime(60_000);
  expect((await t.query(api.reminders.get, { reminderId }))!.status).toBe("scheduled");
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect((await t.query(api.reminders.get, { reminderId }))!.status).toBe("sent");
  // a sent reminder cannot be cancelled
  expect(await t.mutation(api.reminders.cancel, { reminderId })).toBe(false);
  expect((await t.query(api.reminders.get, { reminderId }))!.status).toBe("sent");
});

test("cancel cancels the scheduled job and the reminder is never sent", async () => {
  const t = convexTest(schema, modules);
  const keep = await t.mutation(api.reminders.create, { text: "keep", remindAt: IN_ONE_HOUR });
  const drop = await t.mutation(api.reminders.create, { text: "drop", remindAt: IN_ONE_HOUR });
  expect(await t.mutation(api.reminders.cancel, { reminderId: drop })).toBe(true);
  const byId = new Map((await jobs(t)).map((j) => [JSON.stringify(j.args), j.state.kind]));
  expect(byId.get(JSON.stringify([{ reminderId: drop }]))).toBe("canceled");
  expect(byId.get(JSON.stringify([{ reminderId: keep }]))).toBe("pending");
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect((await t.query(api.reminders.get, { reminderId: drop }))!.status).toBe("canceled");
  expect((await t.query(api.reminders.get, { reminderId: keep }))!.status).toBe("sent");
  expect(await t.mutation(api.reminders.cancel, { reminderId: drop })).toBe(false);
});

test("deliver and cancel do nothing for a deleted reminder; get returns null", async () => {
  const t = convexTest(schema, modules);
  const reminderId = await t.run(async (ctx) => await ctx.db.insert("reminders", { text: "x", remindAt: NOW, status: "scheduled" }));
  await t.run(async (ctx) => await ctx.db.delete("reminders", reminderId));
  expect(await t.mutation(internal.reminders.deliver, { reminderId })).toBeNull();
  expect(await t.mutation(api.reminders.cancel, { reminderId })).toBe(false);
  expect(await t.query(api.reminders.get, { reminderId })).toBeNull();
});

test("deliver leaves a cancelled reminder alone", async () => {
  const t = convexTest(schema, modules);
  const reminderId = await t.run(async (ctx) => await ctx.db.insert("reminders", { text: "y", remindAt: NOW, status: "canceled" }));
  expect(await t.mutation(internal.reminders.deliver, { reminderId })).toBeNull();
  expect((await t.query(api.reminders.get, { reminderId }))!.status).toBe("canceled");
});
