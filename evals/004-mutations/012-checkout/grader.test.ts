import { convexTest } from "convex-test";
import { ConvexError } from "convex/values";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function errorData(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    return (error as { data: unknown }).data;
  }
  throw new Error("expected the call to throw");
}

async function seed(t: ReturnType<typeof convexTest>) {
  await t.mutation(api.shop.addProduct, { sku: "pen", name: "Pen", price: 2, stock: 10 });
  await t.mutation(api.shop.addProduct, { sku: "ink", name: "Ink", price: 7, stock: 3 });
  await t.mutation(api.shop.addProduct, { sku: "pad", name: "Pad", price: 5, stock: 1 });
}

async function state(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => ({
    stock: (await ctx.db.query("products").collect()).map((p) => [p.sku, p.stock]),
    orders: (await ctx.db.query("orders").collect()).length,
  }));
}

test("checkout decrements every line and records the order", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const result = await t.mutation(api.shop.checkout, {
    items: [
      { sku: "pen", quantity: 4 },
      { sku: "ink", quantity: 3 },
    ],
  });
  expect(result.total).toBe(29);
  expect(await t.query(api.shop.stockOf, { sku: "pen" })).toBe(6);
  expect(await t.query(api.shop.stockOf, { sku: "ink" })).toBe(0);
  expect(await t.query(api.shop.stockOf, { sku: "pad" })).toBe(1);
  const order = await t.run(async (ctx) => await ctx.db.get("orders", result.orderId));
  expect(order).toMatchObject({ total: 29, items: [{ sku: "pen", quantity: 4 }, { sku: "ink", quantity: 3 }] });
});

test("one short line rolls back the whole cart", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const before = await state(t);
  const data = await errorData(
    t.mutation(api.shop.checkout, {
      items: [
        { sku: "pen", quantity: 2 },
        { sku: "ink", quantity: 1 },
        { sku: "pad", quantity: 2 },
      ],
    }),
  );
  expect(data).toEqual({ code: "OUT_OF_STOCK", sku: "pad", available: 1 });
  expect(await state(t)).toEqual(before);
  expect(await errorData(t.mutation(api.shop.checkout, { items: [{ sku: "pen", quantity: 1 }, { sku: "nope", quantity: 1 }] }))).toEqual({
    code: "UNKNOWN_SKU",
    sku: "nope",
  });
  expect(await state(t)).toEqual(before);
});

test("malformed carts are BAD_CART", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const before = await state(t);
  const bad = [
    [],
    [{ sku: "pen", quantity: 0 }],
    [{ sku: "pen", quantity: 1.5 }],
    [{ sku: "pen", quantity: 1 }, { sku: "pen", quantity: 1 }],
    Array.from({ length: 21 }, (_, i) => ({ sku: `s${i}`, quantity: 1 })),
  ];
  for (const items of bad) {
    expect(await errorData(t.mutation(api.shop.checkout, { items }))).toEqual({ code: "BAD_CART" });
  }
  expect(await state(t)).toEqual(before);
});

test("addProduct rejects a duplicate sku; stockOf of unknown sku is null", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await errorData(t.mutation(api.shop.addProduct, { sku: "pen", name: "Other", price: 1, stock: 1 }))).toEqual({
    code: "DUPLICATE_SKU",
    sku: "pen",
  });
  const pens = await t.run(async (ctx) => (await ctx.db.query("products").collect()).filter((p) => p.sku === "pen"));
  expect(pens).toHaveLength(1);
  expect(pens[0].name).toBe("Pen");
  expect(await t.query(api.shop.stockOf, { sku: "nope" })).toBeNull();
});
