import { convexTest } from "convex-test";
import rateLimiterTest from "@convex-dev/rate-limiter/test";
import { RateLimiter } from "@convex-dev/rate-limiter";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { components } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

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

function ping(t: ReturnType<typeof setup>, apiKey?: string) {
  const headers: Record<string, string> = apiKey === undefined ? {} : { "X-Api-Key": apiKey };
  return t.fetch("/api/ping", { method: "POST", headers });
}

async function logged(t: ReturnType<typeof setup>) {
  return await t.run(async (ctx) => (await ctx.db.query("requests").collect()).map((r) => r.apiKey));
}

test("a request with a key is accepted and logged", async () => {
  const t = setup();
  const response = await ping(t, "key-a");
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ ok: true });
  expect(await logged(t)).toEqual(["key-a"]);
});

test("a request without a key gets 401 and is not logged", async () => {
  const t = setup();
  expect((await ping(t)).status).toBe(401);
  expect((await ping(t, "")).status).toBe(401);
  expect(await logged(t)).toEqual([]);
});

test("the third request in a burst gets 429 with Retry-After and is not logged", async () => {
  const t = setup();
  expect((await ping(t, "key-a")).status).toBe(200);
  expect((await ping(t, "key-a")).status).toBe(200);
  const limited = await ping(t, "key-a");
  expect(limited.status).toBe(429);
  const retryAfter = Number(limited.headers.get("Retry-After"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(30);
  expect(await logged(t)).toEqual(["key-a", "key-a"]);
});

test("keys have separate buckets and tokens come back over time", async () => {
  const t = setup();
  await ping(t, "key-a");
  await ping(t, "key-a");
  expect((await ping(t, "key-a")).status).toBe(429);
  expect((await ping(t, "key-b")).status).toBe(200);
  vi.advanceTimersByTime(30_001);
  expect((await ping(t, "key-a")).status).toBe(200);
  expect((await ping(t, "key-a")).status).toBe(429);
});

test("the limit lives in the rate limiter component as apiRequest, keyed by API key", async () => {
  const t = setup();
  const limiter = new RateLimiter(components.rateLimiter, {
    apiRequest: { kind: "token bucket", rate: 2, period: 60_000, capacity: 2 },
  });
  await ping(t, "key-a");
  await ping(t, "key-a");
  const [a, b] = await t.run(async (ctx) => [
    await limiter.check(ctx, "apiRequest", { key: "key-a" }),
    await limiter.check(ctx, "apiRequest", { key: "key-b" }),
  ]);
  expect(a.ok).toBe(false);
  expect(b.ok).toBe(true);
});
