import { convexTest } from "convex-test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
import crons from "./convex/crons";
const modules = import.meta.glob("./convex/**/*.*s");

const NOW = Date.UTC(2030, 0, 10, 8, 0, 0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

type Answer = () => Response | Promise<Response>;

// fetch answers with the given behaviours in turn (the last one repeats).
function stubFetch(...answers: Answer[]) {
  let n = 0;
  const fn = vi.fn(async (_input: unknown, _init?: unknown) => await answers[Math.min(n++, answers.length - 1)]());
  vi.stubGlobal("fetch", fn);
  return fn;
}

const ok = (rates: Record<string, number>): Answer => () =>
  new Response(JSON.stringify({ rates }), { status: 200, headers: { "Content-Type": "application/json" } });
const unavailable: Answer = () => new Response("busy, try later", { status: 503 });
const networkError: Answer = () => {
  throw new TypeError("fetch failed");
};

async function scheduled(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
}

test("a successful sync saves every rate, one row per currency", async () => {
  const fetchMock = stubFetch(ok({ EUR: 0.91, GBP: 0.78 }), ok({ EUR: 0.92, JPY: 151.2 }));
  const t = convexTest(schema, modules);
  expect(await t.action(internal.rates.sync, { attempt: 1 })).toBe("saved");
  expect(String(fetchMock.mock.calls[0][0])).toBe("https://rates.example.com/latest");
  expect(await t.query(api.rates.getRate, { currency: "EUR" })).toBe(0.91);
  expect(await t.action(internal.rates.sync, { attempt: 1 })).toBe("saved");
  expect(await t.query(api.rates.getRate, { currency: "EUR" })).toBe(0.92);
  expect(await t.query(api.rates.getRate, { currency: "GBP" })).toBe(0.78);
  expect(await t.query(api.rates.getRate, { currency: "JPY" })).toBe(151.2);
  expect(await t.query(api.rates.getRate, { currency: "CHF" })).toBeNull();
  const rows = await t.run(async (ctx) => await ctx.db.query("rates").collect());
  expect(rows).toHaveLength(3);
  expect(rows.every((r) => r.updatedAt === NOW)).toBe(true);
  expect(await scheduled(t)).toHaveLength(0);
});

test("a 503 answer schedules a retry with the next attempt number", async () => {
  stubFetch(unavailable);
  const t = convexTest(schema, modules);
  expect(await t.action(internal.rates.sync, { attempt: 1 })).toBe("retrying");
  const jobs = await scheduled(t);
  expect(jobs).toHaveLength(1);
  expect(jobs[0].name).toMatch(/^rates(\.js)?:sync$/);
  expect(jobs[0].args).toEqual([{ attempt: 2 }]);
  expect(jobs[0].scheduledTime).toBe(NOW + 60_000);
  expect(await t.run(async (ctx) => await ctx.db.query("rates").collect())).toHaveLength(0);
});

test("a network error also schedules a retry; attempt 2 waits two minutes", async () => {
  stubFetch(networkError);
  const t = convexTest(schema, modules);
  expect(await t.action(internal.rates.sync, { attempt: 2 })).toBe("retrying");
  const jobs = await scheduled(t);
  expect(jobs).toHaveLength(1);
  expect(jobs[0].args).toEqual([{ attempt: 3 }]);
  expect(jobs[0].scheduledTime).toBe(NOW + 120_000);
});

test("after three failed attempts the failure is recorded and nothing more is scheduled", async () => {
  const fetchMock = stubFetch(unavailable, networkError, unavailable);
  const t = convexTest(schema, modules);
  expect(await t.action(internal.rates.sync, { attempt: 1 })).toBe("retrying");
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(fetchMock).toHaveBeenCalledTimes(3);
  const failures = await t.run(async (ctx) => await ctx.db.query("syncFailures").collect());
  expect(failures).toHaveLength(1);
  expect(failures[0].attempts).toBe(3);
  expect(failures[0].reason.length).toBeGreaterThan(0);
  expect(await t.action(internal.rates.sync, { attempt: 3 })).toBe("failed");
});

test("a retry that succeeds saves the rates and records no failure", async () => {
  stubFetch(unavailable, ok({ USD: 1 }));
  const t = convexTest(schema, modules);
  await t.action(internal.rates.sync, { attempt: 1 });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.rates.getRate, { currency: "USD" })).toBe(1);
  expect(await t.run(async (ctx) => await ctx.db.query("syncFailures").collect())).toHaveLength(0);
});

test("crons.ts registers the hourly sync job with crons.cron", () => {
  expect(Object.keys(crons.crons)).toEqual(["sync exchange rates"]);
  const job = crons.crons["sync exchange rates"];
  expect(job.name).toBe("rates:sync");
  expect(job.schedule).toEqual({ type: "cron", cron: "15 * * * *" });
  expect(job.args).toEqual([{ attempt: 1 }]);
});

test("saveRates and recordFailure are internal mutations returning null", async () => {
  const t = convexTest(schema, modules);
  expect(await t.mutation(internal.rates.saveRates, { rates: [{ currency: "SEK", rate: 10.5 }] })).toBeNull();
  expect(await t.mutation(internal.rates.recordFailure, { attempts: 3, reason: "x" })).toBeNull();
  expect(await t.query(api.rates.getRate, { currency: "SEK" })).toBe(10.5);
});
