import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("create stores a pending order without optional fields when omitted", async () => {
  const t = convexTest(schema, modules);
  const orderId = await t.mutation(api.orders.create, { customer: "ann" });
  const doc = await t.run(async (ctx) => await ctx.db.get("orders", orderId));
  expect(doc).toMatchObject({ customer: "ann", status: "pending" });
  expect(doc !== null && "note" in doc).toBe(false);
  expect(doc !== null && "shippedAt" in doc).toBe(false);
});

test("create keeps the note when given", async () => {
  const t = convexTest(schema, modules);
  const orderId = await t.mutation(api.orders.create, { customer: "bo", note: "gift wrap" });
  const doc = await t.run(async (ctx) => await ctx.db.get("orders", orderId));
  expect(doc?.note).toBe("gift wrap");
});

test("ship sets status and shippedAt and leaves other fields unchanged", async () => {
  const t = convexTest(schema, modules);
  const orderId = await t.mutation(api.orders.create, { customer: "cy", note: "fragile" });
  const before = Date.now();
  expect(await t.mutation(api.orders.ship, { orderId })).toBeNull();
  const doc = await t.run(async (ctx) => await ctx.db.get("orders", orderId));
  expect(doc).toMatchObject({ customer: "cy", note: "fragile", status: "shipped" });
  expect(typeof doc?.shippedAt).toBe("number");
  expect(doc!.shippedAt!).toBeGreaterThanOrEqual(before - 1000);
});

test("ship throws for an order that is not pending", async () => {
  const t = convexTest(schema, modules);
  const orderId = await t.mutation(api.orders.create, { customer: "di" });
  await t.run(async (ctx) => {
    await ctx.db.patch("orders", orderId, { status: "cancelled" });
  });
  await expect(t.mutation(api.orders.ship, { orderId })).rejects.toThrow();
  const doc = await t.run(async (ctx) => await ctx.db.get("orders", orderId));
  expect(doc?.status).toBe("cancelled");
  expect(doc !== null && "shippedAt" in doc).toBe(false);
});

test("listByStatus returns only orders with that status, oldest first", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.orders.create, { customer: "a" });
  const b = await t.mutation(api.orders.create, { customer: "b", note: "n" });
  const c = await t.mutation(api.orders.create, { customer: "c" });
  await t.mutation(api.orders.ship, { orderId: b });
  const pending = await t.query(api.orders.listByStatus, { status: "pending" });
  expect(pending.map((o) => o._id)).toEqual([a, c]);
  const shipped = await t.query(api.orders.listByStatus, { status: "shipped" });
  expect(shipped).toHaveLength(1);
  expect(shipped[0]).toMatchObject({ _id: b, customer: "b", note: "n", status: "shipped" });
  expect(await t.query(api.orders.listByStatus, { status: "cancelled" })).toEqual([]);
});

test("listByStatus rejects an invalid status", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.query(api.orders.listByStatus, { status: "lost" as unknown as "pending" }),
  ).rejects.toThrow();
});
