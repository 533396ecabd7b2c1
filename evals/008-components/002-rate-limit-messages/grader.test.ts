import { convexTest } from "convex-test";
import rateLimiterTest from "@convex-dev/rate-limiter/test";
import { RateLimiter } from "@convex-dev/rate-limiter";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, components } from "./convex/_generated/api";

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

test("three messages in a burst are accepted and stored", async () => {
  const t = setup();
  for (let i = 0; i < 3; i++) {
    const result = await t.mutation(api.messages.send, { author: "ada", body: `hi ${i}` });
    expect(result.ok).toBe(true);
  }
  expect(await t.query(api.messages.count, { author: "ada" })).toBe(3);
});

test("the fourth message is refused with retryAfter and not stored", async () => {
  const t = setup();
  for (let i = 0; i < 3; i++) {
    await t.mutation(api.messages.send, { author: "ada", body: `hi ${i}` });
  }
  const refused = await t.mutation(api.messages.send, { author: "ada", body: "too many" });
  expect(refused.ok).toBe(false);
  expect(Object.keys(refused).sort()).toEqual(["ok", "retryAfter"]);
  const retryAfter = (refused as unknown as { retryAfter: number }).retryAfter;
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(20000);
  expect(await t.query(api.messages.count, { author: "ada" })).toBe(3);
});

test("the accepted result carries the id of the stored message", async () => {
  const t = setup();
  const result = await t.mutation(api.messages.send, { author: "ada", body: "hello" });
  expect(result.ok).toBe(true);
  const id = (result as unknown as { messageId: any }).messageId;
  const doc = await t.run(async (ctx) => await ctx.db.get("messages", id));
  expect(doc).toMatchObject({ author: "ada", body: "hello" });
});

test("each author has their own bucket", async () => {
  const t = setup();
  for (let i = 0; i < 4; i++) {
    await t.mutation(api.messages.send, { author: "ada", body: `hi ${i}` });
  }
  const bob = await t.mutation(api.messages.send, { author: "bob", body: "hello" });
  expect(bob.ok).toBe(true);
  expect(await t.query(api.messages.count, { author: "bob" })).toBe(1);
});

test("after waiting 20 seconds one more message is accepted", async () => {
  const t = setup();
  for (let i = 0; i < 3; i++) {
    await t.mutation(api.messages.send, { author: "ada", body: `hi ${i}` });
  }
  vi.advanceTimersByTime(20_001);
  expect((await t.mutation(api.messages.send, { author: "ada", body: "later" })).ok).toBe(true);
  expect((await t.mutation(api.messages.send, { author: "ada", body: "again" })).ok).toBe(false);
  expect(await t.query(api.messages.count, { author: "ada" })).toBe(4);
});

test("the limit lives in the rate limiter component as sendMessage, keyed by author", async () => {
  const t = setup();
  const limiter = new RateLimiter(components.rateLimiter, {
    sendMessage: { kind: "token bucket", rate: 3, period: 60_000, capacity: 3 },
  });
  for (let i = 0; i < 3; i++) {
    await t.mutation(api.messages.send, { author: "ada", body: `hi ${i}` });
  }
  const [ada, bob] = await t.run(async (ctx) => [
    await limiter.check(ctx, "sendMessage", { key: "ada" }),
    await limiter.check(ctx, "sendMessage", { key: "bob" }),
  ]);
  expect(ada.ok).toBe(false);
  expect(bob.ok).toBe(true);
});
