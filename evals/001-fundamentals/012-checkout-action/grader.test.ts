import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import { ConvexError } from "convex/values";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function errorData(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    const data: unknown = (error as { data: unknown }).data;
    return typeof data === "string" ? JSON.parse(data) : data;
  }
  throw new Error("expected the call to throw");
}

async function state(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => ({
    inventory: (await ctx.db.query("inventory").collect()).map((r) => [r.sku, r.stock]),
    reservations: (await ctx.db.query("reservations").collect()).map((r) => r.quantity),
  }));
}

test("addStock inserts then adds to one row per sku", async () => {
  const t = convexTest(schema, modules);
  expect(await t.mutation(api.checkout.addStock, { sku: "mug", quantity: 3 })).toBeNull();
  await t.mutation(api.checkout.addStock, { sku: "mug", quantity: 2 });
  await t.mutation(api.checkout.addStock, { sku: "cap", quantity: 1 });
  expect((await state(t)).inventory).toEqual([
    ["mug", 5],
    ["cap", 1],
  ]);
  expect(await t.query(internal.checkout.getStock, { sku: "mug" })).toBe(5);
  expect(await t.query(internal.checkout.getStock, { sku: "hat" })).toBeNull();
});

test("checkout reserves stock and returns the reservation id", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.checkout.addStock, { sku: "mug", quantity: 5 });
  const reservationId = await t.action(api.checkout.checkout, { sku: "mug", quantity: 2 });
  const reservation = await t.run(async (ctx) => await ctx.db.get("reservations", reservationId));
  expect(reservation?.quantity).toBe(2);
  const row = await t.run(async (ctx) => await ctx.db.get("inventory", reservation!.inventoryId));
  expect(row).toMatchObject({ sku: "mug", stock: 3 });
});

test("checkout of an unknown sku throws UNKNOWN_SKU", async () => {
  const t = convexTest(schema, modules);
  expect(await errorData(t.action(api.checkout.checkout, { sku: "nope", quantity: 1 }))).toEqual({
    code: "UNKNOWN_SKU",
  });
  expect(await state(t)).toEqual({ inventory: [], reservations: [] });
});

test("checkout rejects a quantity that is not a positive integer", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.checkout.addStock, { sku: "mug", quantity: 5 });
  for (const quantity of [0, -1, 1.5]) {
    expect(await errorData(t.action(api.checkout.checkout, { sku: "mug", quantity }))).toEqual({
      code: "INVALID_QUANTITY",
    });
  }
  expect(await state(t)).toEqual({ inventory: [["mug", 5]], reservations: [] });
});

test("checkout passes OUT_OF_STOCK through with the available stock", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.checkout.addStock, { sku: "mug", quantity: 2 });
  expect(await errorData(t.action(api.checkout.checkout, { sku: "mug", quantity: 3 }))).toEqual({
    code: "OUT_OF_STOCK",
    available: 2,
  });
  expect(await state(t)).toEqual({ inventory: [["mug", 2]], reservations: [] });
});

test("reserve is an internal mutation with the same errors", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.checkout.addStock, { sku: "cap", quantity: 1 });
  expect(await errorData(t.mutation(internal.checkout.reserve, { sku: "x", quantity: 1 }))).toEqual({
    code: "UNKNOWN_SKU",
  });
  expect(await errorData(t.mutation(internal.checkout.reserve, { sku: "cap", quantity: 2 }))).toEqual({
    code: "OUT_OF_STOCK",
    available: 1,
  });
  await t.mutation(internal.checkout.reserve, { sku: "cap", quantity: 1 });
  expect(await state(t)).toEqual({ inventory: [["cap", 0]], reservations: [1] });
});
