import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { internal } from "./convex/_generated/api";
import crons from "./convex/crons";
const modules = import.meta.glob("./convex/**/*.*s");

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

afterEach(() => {
  vi.useRealTimers();
});

async function seed(t: ReturnType<typeof convexTest>) {
  await t.run(async (ctx) => {
    await ctx.db.insert("sessions", { userId: "a", expiresAt: NOW - 60_000 });
    await ctx.db.insert("sessions", { userId: "b", expiresAt: NOW });
    await ctx.db.insert("sessions", { userId: "c", expiresAt: NOW + 1 });
    await ctx.db.insert("sessions", { userId: "d", expiresAt: NOW + 3_600_000 });
  });
}

test("purgeExpired deletes sessions with expiresAt <= now and returns the count", async () => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.mutation(internal.sessions.purgeExpired, {})).toBe(2);
  const left = await t.run(async (ctx) => await ctx.db.query("sessions").collect());
  expect(left.map((s) => s.userId).sort()).toEqual(["c", "d"]);
  expect(await t.mutation(internal.sessions.purgeExpired, {})).toBe(0);
});

test("recordActiveCount inserts the number of unexpired sessions", async () => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.mutation(internal.sessions.recordActiveCount, {})).toBe(2);
  const rows = await t.run(async (ctx) => await ctx.db.query("sessionCounts").collect());
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ count: 2, takenAt: NOW });
});

test("crons.ts registers the interval job", () => {
  const job = crons.crons["purge expired sessions"];
  expect(job).toBeDefined();
  expect(job.name).toBe("sessions:purgeExpired");
  expect(job.schedule).toEqual({ type: "interval", minutes: 5 });
  expect(job.args).toEqual([{}]);
});

test("crons.ts registers the daily job at 04:30 UTC", () => {
  const job = crons.crons["record active sessions"];
  expect(job).toBeDefined();
  expect(job.name).toBe("sessions:recordActiveCount");
  expect(job.schedule).toEqual({ type: "daily", hourUTC: 4, minuteUTC: 30 });
  expect(Object.keys(crons.crons).sort()).toEqual(["purge expired sessions", "record active sessions"]);
});
