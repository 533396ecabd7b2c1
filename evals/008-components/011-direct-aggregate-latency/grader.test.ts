import { convexTest } from "convex-test";
import aggregateTest from "@convex-dev/aggregate/test";
import { expect, test } from "vitest";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

function setup() {
  const t = convexTest(undefined, modules);
  aggregateTest.register(t, "latencies");
  return t;
}

async function recordAll(t: ReturnType<typeof setup>, values: number[]) {
  for (const [i, latencyMs] of values.entries()) {
    expect(await t.mutation(api.latency.record, { requestId: `r${i}`, latencyMs })).toBeNull();
  }
}

test("summary is empty at first", async () => {
  const t = setup();
  expect(await t.query(api.latency.summary, {})).toEqual({ count: 0, averageMs: null });
  expect(await t.query(api.latency.percentile, { p: 50 })).toBeNull();
  expect(await t.query(api.latency.countSlowerThan, { thresholdMs: 0 })).toBe(0);
});

test("summary counts and averages the measurements", async () => {
  const t = setup();
  await recordAll(t, [120, 80, 100]);
  expect(await t.query(api.latency.summary, {})).toEqual({ count: 3, averageMs: 100 });
});

test("countSlowerThan counts strictly slower measurements", async () => {
  const t = setup();
  await recordAll(t, [50, 200, 120, 120, 300, 90]);
  expect(await t.query(api.latency.countSlowerThan, { thresholdMs: 120 })).toBe(2);
  expect(await t.query(api.latency.countSlowerThan, { thresholdMs: 119 })).toBe(4);
  expect(await t.query(api.latency.countSlowerThan, { thresholdMs: 1000 })).toBe(0);
});

test("percentile picks the stated position in the sorted latencies", async () => {
  const t = setup();
  await recordAll(t, [70, 10, 50, 30, 90]);
  expect(await t.query(api.latency.percentile, { p: 0 })).toBe(10);
  expect(await t.query(api.latency.percentile, { p: 50 })).toBe(50);
  expect(await t.query(api.latency.percentile, { p: 90 })).toBe(70);
  expect(await t.query(api.latency.percentile, { p: 100 })).toBe(90);
});
