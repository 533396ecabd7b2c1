import { convexTest } from "convex-test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

const SECRET = "whsec_test_123";

beforeEach(() => {
  vi.stubEnv("WEBHOOK_SECRET", SECRET);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

function send(t: ReturnType<typeof convexTest>, body: string, secret: string | null = SECRET) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (secret !== null) headers["x-webhook-secret"] = secret;
  return t.fetch("/webhooks/payments", { method: "POST", headers, body });
}

const event = (id: string, amountCents: number, type: string) => JSON.stringify({ id, amountCents, type });

async function count(t: ReturnType<typeof convexTest>) {
  return (await t.run(async (ctx) => await ctx.db.query("payments").collect())).length;
}

test("a succeeded event is stored as paid and answered with { received: true }", async () => {
  const t = convexTest(schema, modules);
  const res = await send(t, event("pi_1", 1250, "payment.succeeded"));
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ received: true });
  expect(await t.query(api.payments.getPayment, { externalId: "pi_1" })).toEqual({ amountCents: 1250, status: "paid" });
  expect(await t.query(api.payments.getPayment, { externalId: "pi_2" })).toBeNull();
});

test("a refund of the same payment updates the one row", async () => {
  const t = convexTest(schema, modules);
  await send(t, event("pi_1", 1250, "payment.succeeded"));
  const res = await send(t, event("pi_1", 1250, "payment.refunded"));
  expect(res.status).toBe(200);
  expect(await t.query(api.payments.getPayment, { externalId: "pi_1" })).toEqual({ amountCents: 1250, status: "refunded" });
  expect(await count(t)).toBe(1);
});

test("a missing or wrong secret is answered 401 and stores nothing", async () => {
  const t = convexTest(schema, modules);
  expect((await send(t, event("pi_1", 5, "payment.succeeded"), null)).status).toBe(401);
  expect((await send(t, event("pi_1", 5, "payment.succeeded"), "nope")).status).toBe(401);
  expect(await count(t)).toBe(0);
});

test("with WEBHOOK_SECRET unset every request is answered 401", async () => {
  vi.stubEnv("WEBHOOK_SECRET", "");
  const t = convexTest(schema, modules);
  expect((await send(t, event("pi_1", 5, "payment.succeeded"), "")).status).toBe(401);
  expect((await send(t, event("pi_1", 5, "payment.succeeded"), SECRET)).status).toBe(401);
  expect(await count(t)).toBe(0);
});

test("invalid bodies are answered 400 and store nothing", async () => {
  const t = convexTest(schema, modules);
  const bodies = [
    "not json",
    "null",
    JSON.stringify({ id: "pi_1", amountCents: 5 }),
    JSON.stringify({ id: 7, amountCents: 5, type: "payment.succeeded" }),
    JSON.stringify({ id: "pi_1", amountCents: "5", type: "payment.succeeded" }),
    event("pi_1", 5, "payment.disputed"),
  ];
  for (const body of bodies) {
    expect((await send(t, body)).status, body).toBe(400);
  }
  expect(await count(t)).toBe(0);
});

test("recordEvent is an internal upsert returning the payment id", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(internal.payments.recordEvent, { externalId: "x", amountCents: 1, status: "paid" });
  const again = await t.mutation(internal.payments.recordEvent, { externalId: "x", amountCents: 2, status: "refunded" });
  expect(again).toBe(id);
  expect(await t.run(async (ctx) => await ctx.db.get("payments", id))).toMatchObject({ externalId: "x", amountCents: 2, status: "refunded" });
});
