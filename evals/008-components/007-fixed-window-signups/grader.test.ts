import { convexTest } from "convex-test";
import rateLimiterTest from "@convex-dev/rate-limiter/test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");
const HOUR = 60 * 60 * 1000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
});

afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const t = convexTest(schema, modules);
  rateLimiterTest.register(t, "rateLimiter");
  return t;
}

async function signups(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => (await ctx.db.query("signups").collect()).map((s) => s.email));
}

test("two sign-ups are accepted and stored", async () => {
  const t = setup();
  const id = await t.mutation(api.signups.signUp, { email: "a@x.test" });
  await t.mutation(api.signups.signUp, { email: "b@x.test" });
  expect(await t.run(async (ctx) => (await ctx.db.get("signups", id))?.email)).toBe("a@x.test");
  expect((await signups(t)).sort()).toEqual(["a@x.test", "b@x.test"]);
});

test("the third sign-up in the window throws the rate limiter's error and stores nothing", async () => {
  const t = setup();
  await t.mutation(api.signups.signUp, { email: "a@x.test" });
  await t.mutation(api.signups.signUp, { email: "b@x.test" });
  let caught: unknown = null;
  try {
    await t.mutation(api.signups.signUp, { email: "c@x.test" });
  } catch (e) {
    caught = e;
  }
  expect(caught).not.toBeNull();
  expect((caught as { data?: { kind?: string } }).data?.kind).toBe("RateLimited");
  expect(await signups(t)).toHaveLength(2);
});

test("canSignUp reports the state without consuming", async () => {
  const t = setup();
  expect(await t.query(api.signups.canSignUp, {})).toEqual({ ok: true, retryAfter: null });
  expect(await t.query(api.signups.canSignUp, {})).toEqual({ ok: true, retryAfter: null });
  await t.mutation(api.signups.signUp, { email: "a@x.test" });
  expect((await t.query(api.signups.canSignUp, {})).ok).toBe(true);
  await t.mutation(api.signups.signUp, { email: "b@x.test" });
  const status = await t.query(api.signups.canSignUp, {});
  expect(status.ok).toBe(false);
  expect(status.retryAfter).toBeGreaterThan(0);
  expect(status.retryAfter).toBeLessThanOrEqual(HOUR);
});

test("the limit is app-wide and a new window allows sign-ups again", async () => {
  const t = setup();
  await t.mutation(api.signups.signUp, { email: "a@x.test" });
  await t.mutation(api.signups.signUp, { email: "b@x.test" });
  await expect(t.mutation(api.signups.signUp, { email: "other@y.test" })).rejects.toThrow();
  vi.advanceTimersByTime(HOUR + 1);
  expect((await t.query(api.signups.canSignUp, {})).ok).toBe(true);
  await t.mutation(api.signups.signUp, { email: "c@x.test" });
  expect(await signups(t)).toHaveLength(3);
});
