import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

afterEach(() => {
  vi.useRealTimers();
});

test("submit stores a pending job and schedules processJob", async () => {
  vi.useFakeTimers();
  const t = convexTest(schema, modules);
  const jobId = await t.mutation(api.jobs.submit, { input: "hello" });
  expect(await t.query(api.jobs.getJob, { jobId })).toEqual({ status: "pending" });
  const scheduled = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0].name).toMatch(/^jobs(\.js)?:processJob$/);
  expect(scheduled[0].args).toEqual([{ jobId }]);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
});

test("after scheduled functions run the job is done with the upper-cased result", async () => {
  vi.useFakeTimers();
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.jobs.submit, { input: "hello" });
  const b = await t.mutation(api.jobs.submit, { input: "Convex 1.48" });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.jobs.getJob, { jobId: a })).toEqual({ status: "done", result: "HELLO" });
  expect(await t.query(api.jobs.getJob, { jobId: b })).toEqual({ status: "done", result: "CONVEX 1.48" });
});

test("processJob does nothing for a deleted job; getJob returns null", async () => {
  const t = convexTest(schema, modules);
  const jobId = await t.run(async (ctx) => await ctx.db.insert("jobs", { input: "x", status: "pending" }));
  await t.run(async (ctx) => await ctx.db.delete("jobs", jobId));
  expect(await t.action(internal.jobs.processJob, { jobId })).toBeNull();
  expect(await t.query(api.jobs.getJob, { jobId })).toBeNull();
  expect(await t.query(internal.jobs.getJobInput, { jobId })).toBeNull();
});

test("internal completeJob and processJob work when called directly", async () => {
  const t = convexTest(schema, modules);
  const jobId = await t.run(async (ctx) => await ctx.db.insert("jobs", { input: "abc", status: "pending" }));
  expect(await t.query(internal.jobs.getJobInput, { jobId })).toBe("abc");
  expect(await t.action(internal.jobs.processJob, { jobId })).toBeNull();
  expect(await t.query(api.jobs.getJob, { jobId })).toEqual({ status: "done", result: "ABC" });
});
