import { convexTest } from "convex-test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

test("applyIncrement creates then increments a single counter", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(internal.counters.applyIncrement, { name: "a", amount: 2 });
  await t.mutation(internal.counters.applyIncrement, { name: "a", amount: 5 });
  await t.mutation(internal.counters.applyIncrement, { name: "b", amount: 1 });
  const docs = await t.run(async (ctx) => await ctx.db.query("counters").collect());
  expect(docs.filter((d) => d.name === "a")).toHaveLength(1);
  expect(docs.find((d) => d.name === "a")?.value).toBe(7);
  expect(docs.find((d) => d.name === "b")?.value).toBe(1);
});

test("getValue returns the value, or null for an unknown name", async () => {
  const t = convexTest(schema, modules);
  expect(await t.query(internal.counters.getValue, { name: "missing" })).toBeNull();
  await t.run(async (ctx) => {
    await ctx.db.insert("counters", { name: "x", value: 41 });
  });
  expect(await t.query(internal.counters.getValue, { name: "x" })).toBe(41);
});

test("increment schedules the write instead of writing directly", async () => {
  const t = convexTest(schema, modules);
  const result = await t.mutation(api.counters.increment, { name: "c", amount: 3 });
  expect(result).toBeNull();
  // Not applied yet: the write happens in the scheduled internal mutation.
  expect(await t.query(internal.counters.getValue, { name: "c" })).toBeNull();
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(internal.counters.getValue, { name: "c" })).toBe(3);
});

test("several increments add up after the scheduled functions run", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.counters.increment, { name: "d", amount: 1 });
  await t.mutation(api.counters.increment, { name: "d", amount: 10 });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(internal.counters.getValue, { name: "d" })).toBe(11);
  const docs = await t.run(async (ctx) => await ctx.db.query("counters").collect());
  expect(docs).toHaveLength(1);
});

test("increment rejects a non-number amount", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.counters.increment, { name: "e", amount: "1" as unknown as number }),
  ).rejects.toThrow();
});
