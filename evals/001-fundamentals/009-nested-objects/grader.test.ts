import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

type Item = { sku: string; quantity: number; unitPrice: number };

async function orderCount(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => (await ctx.db.query("orders").collect()).length);
}

test("place stores the items and the total", async () => {
  const t = convexTest(schema, modules);
  const items = [
    { sku: "pen", quantity: 3, unitPrice: 1.5 },
    { sku: "pad", quantity: 1, unitPrice: 4 },
  ];
  const { orderId, total } = await t.mutation(api.orders.place, { customer: "ann", items });
  expect(total).toBe(8.5);
  const order = await t.query(api.orders.get, { orderId });
  expect(order).toMatchObject({ _id: orderId, customer: "ann", items, total: 8.5 });
  expect(typeof order!._creationTime).toBe("number");
});

test("place rejects empty orders and bad quantities", async () => {
  const t = convexTest(schema, modules);
  await expect(t.mutation(api.orders.place, { customer: "bo", items: [] })).rejects.toThrow();
  await expect(
    t.mutation(api.orders.place, {
      customer: "bo",
      items: [{ sku: "a", quantity: 0, unitPrice: 1 }],
    }),
  ).rejects.toThrow();
  await expect(
    t.mutation(api.orders.place, {
      customer: "bo",
      items: [
        { sku: "a", quantity: 1, unitPrice: 1 },
        { sku: "b", quantity: 1.5, unitPrice: 1 },
      ],
    }),
  ).rejects.toThrow();
  expect(await orderCount(t)).toBe(0);
});

test("item validators reject missing and extra fields", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.orders.place, {
      customer: "cy",
      items: [{ sku: "a", quantity: 1 } as unknown as Item],
    }),
  ).rejects.toThrow();
  await expect(
    t.mutation(api.orders.place, {
      customer: "cy",
      items: [{ sku: "a", quantity: 1, unitPrice: 2, color: "red" } as unknown as Item],
    }),
  ).rejects.toThrow();
  expect(await orderCount(t)).toBe(0);
});

test("get returns null for a deleted order", async () => {
  const t = convexTest(schema, modules);
  const { orderId } = await t.mutation(api.orders.place, {
    customer: "dee",
    items: [{ sku: "x", quantity: 1, unitPrice: 1 }],
  });
  await t.run(async (ctx) => {
    await ctx.db.delete("orders", orderId);
  });
  expect(await t.query(api.orders.get, { orderId })).toBeNull();
});

test("skusFor returns the distinct SKUs of one customer, sorted", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.orders.place, {
    customer: "eve",
    items: [
      { sku: "zip", quantity: 1, unitPrice: 1 },
      { sku: "cap", quantity: 2, unitPrice: 1 },
    ],
  });
  await t.mutation(api.orders.place, {
    customer: "fay",
    items: [{ sku: "hat", quantity: 1, unitPrice: 1 }],
  });
  await t.mutation(api.orders.place, {
    customer: "eve",
    items: [{ sku: "cap", quantity: 1, unitPrice: 1 }, { sku: "bag", quantity: 1, unitPrice: 1 }],
  });
  expect(await t.query(api.orders.skusFor, { customer: "eve" })).toEqual(["bag", "cap", "zip"]);
  expect(await t.query(api.orders.skusFor, { customer: "nobody" })).toEqual([]);
});
