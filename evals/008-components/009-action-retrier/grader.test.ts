import { convexTest } from "convex-test";
import actionRetrierTest from "@convex-dev/action-retrier/test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const t = convexTest(schema, modules);
  actionRetrierTest.register(t, "actionRetrier");
  return t;
}

test("a new job is running with no attempts yet", async () => {
  const t = setup();
  const jobId = await t.mutation(api.jobs.startJob, { name: "sync", failuresBeforeSuccess: 0 });
  expect(await t.query(api.jobs.getJob, { jobId })).toEqual({
    name: "sync", attempts: 0, status: "running", result: null,
  });
});

test("a job that never fails succeeds on the first attempt", async () => {
  const t = setup();
  const jobId = await t.mutation(api.jobs.startJob, { name: "sync", failuresBeforeSuccess: 0 });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.jobs.getJob, { jobId })).toEqual({
    name: "sync", attempts: 1, status: "succeeded", result: "done after 1 attempts",
  });
});

test("a flaky job is retried until it succeeds", async () => {
  const t = setup();
  const jobId = await t.mutation(api.jobs.startJob, { name: "flaky", failuresBeforeSuccess: 2 });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.jobs.getJob, { jobId })).toEqual({
    name: "flaky", attempts: 3, status: "succeeded", result: "done after 3 attempts",
  });
});

test("a job that keeps failing stops after 4 attempts and is failed", async () => {
  const t = setup();
  const jobId = await t.mutation(api.jobs.startJob, { name: "broken", failuresBeforeSuccess: 100 });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.jobs.getJob, { jobId })).toEqual({
    name: "broken", attempts: 4, status: "failed", result: null,
  });
});
