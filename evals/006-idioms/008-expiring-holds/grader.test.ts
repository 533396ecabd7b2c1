import { convexTest } from "convex-test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

const NOW = Date.UTC(2031, 8, 9, 18, 0, 0);
const HOLD_MS = 600_000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

async function errorCode(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return (e as { data?: { code?: unknown } }).data?.code;
  }
  throw new Error("expected the call to throw");
}

test("placeHold stores an active hold and schedules expireHold in 10 minutes", async () => {
  const t = convexTest(schema, modules);
  const holdId = await t.mutation(api.holds.placeHold, { seat: "A1", holder: "ada" });
  expect(await t.run(async (ctx) => await ctx.db.get("holds", holdId))).toMatchObject({
    seat: "A1", holder: "ada", status: "active", expiresAt: NOW + HOLD_MS,
  });
  const jobs = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
  expect(jobs).toHaveLength(1);
  expect(jobs[0].name).toMatch(/^holds(\.js)?:expireHold$/);
  expect(jobs[0].args).toEqual([{ holdId }]);
  expect(jobs[0].scheduledTime).toBe(NOW + HOLD_MS);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
});

test("a held seat cannot be held again until the hold expires", async () => {
  const t = convexTest(schema, modules);
  const first = await t.mutation(api.holds.placeHold, { seat: "A1", holder: "ada" });
  expect(await errorCode(t.mutation(api.holds.placeHold, { seat: "A1", holder: "bob" }))).toBe("SEAT_TAKEN");
  await t.mutation(api.holds.placeHold, { seat: "B2", holder: "bob" });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect((await t.run(async (ctx) => await ctx.db.get("holds", first)))!.status).toBe("released");
  const second = await t.mutation(api.holds.placeHold, { seat: "A1", holder: "bob" });
  expect((await t.run(async (ctx) => await ctx.db.get("holds", second)))!.status).toBe("active");
});

test("confirmHold confirms an unexpired hold; expiry then leaves it alone", async () => {
  const t = convexTest(schema, modules);
  const holdId = await t.mutation(api.holds.placeHold, { seat: "C3", holder: "ada" });
  expect(await t.mutation(api.holds.confirmHold, { holdId })).toBe(true);
  expect(await t.mutation(api.holds.confirmHold, { holdId })).toBe(false);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect((await t.run(async (ctx) => await ctx.db.get("holds", holdId)))!.status).toBe("confirmed");
  expect(await errorCode(t.mutation(api.holds.placeHold, { seat: "C3", holder: "bob" }))).toBe("SEAT_TAKEN");
});

test("confirmHold refuses an expired or released hold", async () => {
  const t = convexTest(schema, modules);
  const holdId = await t.mutation(api.holds.placeHold, { seat: "D4", holder: "ada" });
  vi.setSystemTime(NOW + HOLD_MS + 1);
  expect(await t.mutation(api.holds.confirmHold, { holdId })).toBe(false);
  expect(await t.mutation(internal.holds.expireHold, { holdId })).toBeNull();
  expect(await t.mutation(api.holds.confirmHold, { holdId })).toBe(false);
  expect((await t.run(async (ctx) => await ctx.db.get("holds", holdId)))!.status).toBe("released");
});

test("seatStatus uses its now argument", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.holds.placeHold, { seat: "E5", holder: "ada" });
  expect(await t.query(api.holds.seatStatus, { seat: "E5", now: NOW + 1000 })).toBe("held");
  // past expiresAt: free even though expireHold has not run yet
  expect(await t.query(api.holds.seatStatus, { seat: "E5", now: NOW + HOLD_MS })).toBe("free");
  // a `now` before the hold was placed still sees the hold (its expiresAt is later)
  vi.setSystemTime(NOW + 5 * HOLD_MS);
  expect(await t.query(api.holds.seatStatus, { seat: "E5", now: NOW })).toBe("held");
  expect(await t.query(api.holds.seatStatus, { seat: "Z9", now: NOW })).toBe("free");
  const other = await t.run(async (ctx) => await ctx.db.insert("holds", { seat: "F6", holder: "x", expiresAt: NOW, status: "confirmed" }));
  expect(other).toBeTruthy();
  expect(await t.query(api.holds.seatStatus, { seat: "F6", now: NOW + 10 * HOLD_MS })).toBe("confirmed");
});

test("expireHold does nothing for a deleted hold", async () => {
  const t = convexTest(schema, modules);
  const holdId = await t.run(async (ctx) => await ctx.db.insert("holds", { seat: "G7", holder: "x", expiresAt: NOW, status: "active" }));
  await t.run(async (ctx) => await ctx.db.delete("holds", holdId));
  expect(await t.mutation(internal.holds.expireHold, { holdId })).toBeNull();
});
