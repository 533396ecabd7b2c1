import { convexTest } from "convex-test";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");
const MINUTE = 60 * 1000;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

async function errorData(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    return (error as { data: unknown }).data;
  }
  throw new Error("expected the call to throw");
}

test("place stores the scheduled expiry job, due in 15 minutes", async () => {
  const t = convexTest(schema, modules);
  const start = Date.now();
  const orderId = await t.mutation(api.orders.place, { item: "book" });
  const state = await t.run(async (ctx) => ({
    order: await ctx.db.get("orders", orderId),
    jobs: await ctx.db.system.query("_scheduled_functions").collect(),
  }));
  expect(state.order?.status).toBe("pending");
  expect(state.jobs).toHaveLength(1);
  expect(state.order?.expiryJob).toBe(state.jobs[0]._id);
  expect(state.jobs[0].args[0]).toEqual({ orderId });
  expect(state.jobs[0].scheduledTime).toBeGreaterThanOrEqual(start + 15 * MINUTE - 1000);
  expect(state.jobs[0].scheduledTime).toBeLessThanOrEqual(start + 15 * MINUTE + 1000);
});

test("an unconfirmed order expires after 15 minutes, not before", async () => {
  const t = convexTest(schema, modules);
  const orderId = await t.mutation(api.orders.place, { item: "book" });
  vi.advanceTimersByTime(14 * MINUTE);
  expect(await t.query(api.orders.status, { orderId })).toBe("pending");
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.orders.status, { orderId })).toBe("expired");
  const order = await t.run(async (ctx) => await ctx.db.get("orders", orderId));
  expect(order !== null && "expiryJob" in order).toBe(false);
  expect(await errorData(t.mutation(api.orders.confirm, { orderId }))).toEqual({ code: "NOT_PENDING", status: "expired" });
});

test("confirm cancels the expiry and clears the job id", async () => {
  const t = convexTest(schema, modules);
  const orderId = await t.mutation(api.orders.place, { item: "lamp" });
  expect(await t.mutation(api.orders.confirm, { orderId })).toBeNull();
  const state = await t.run(async (ctx) => ({
    order: await ctx.db.get("orders", orderId),
    jobs: await ctx.db.system.query("_scheduled_functions").collect(),
  }));
  expect(state.order?.status).toBe("confirmed");
  expect(state.order !== null && "expiryJob" in state.order).toBe(false);
  expect(state.jobs[0].state.kind).toBe("canceled");
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.orders.status, { orderId })).toBe("confirmed");
  expect(await errorData(t.mutation(api.orders.confirm, { orderId }))).toEqual({ code: "NOT_PENDING", status: "confirmed" });
});

test("expire leaves non-pending orders alone; missing orders", async () => {
  const t = convexTest(schema, modules);
  const orderId = await t.mutation(api.orders.place, { item: "pen" });
  await t.mutation(api.orders.confirm, { orderId });
  expect(await t.mutation(internal.orders.expire, { orderId })).toBeNull();
  expect(await t.query(api.orders.status, { orderId })).toBe("confirmed");
  await t.run(async (ctx) => {
    await ctx.db.delete("orders", orderId);
  });
  expect(await t.mutation(internal.orders.expire, { orderId })).toBeNull();
  expect(await t.query(api.orders.status, { orderId })).toBeNull();
  expect(await errorData(t.mutation(api.orders.confirm, { orderId }))).toEqual({ code: "NOT_FOUND" });
});
