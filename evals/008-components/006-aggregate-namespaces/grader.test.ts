import { convexTest } from "convex-test";
import aggregateTest from "@convex-dev/aggregate/test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

function setup() {
  const t = convexTest(schema, modules);
  aggregateTest.register(t, "purchaseTotals");
  return t;
}

test("totals are kept per customer", async () => {
  const t = setup();
  await t.mutation(api.purchases.addPurchase, { customer: "ada", amount: 30 });
  await t.mutation(api.purchases.addPurchase, { customer: "bob", amount: 5 });
  await t.mutation(api.purchases.addPurchase, { customer: "ada", amount: 12 });
  expect(await t.query(api.purchases.customerTotals, { customer: "ada" })).toEqual({ count: 2, total: 42 });
  expect(await t.query(api.purchases.customerTotals, { customer: "bob" })).toEqual({ count: 1, total: 5 });
  expect(await t.query(api.purchases.customerTotals, { customer: "cy" })).toEqual({ count: 0, total: 0 });
});

test("addPurchase stores the purchase and returns its id", async () => {
  const t = setup();
  const id = await t.mutation(api.purchases.addPurchase, { customer: "ada", amount: 30 });
  expect(await t.run(async (ctx) => await ctx.db.get("purchases", id))).toMatchObject({ customer: "ada", amount: 30 });
});

test("changeAmount updates the document and the totals", async () => {
  const t = setup();
  const id = await t.mutation(api.purchases.addPurchase, { customer: "ada", amount: 30 });
  await t.mutation(api.purchases.addPurchase, { customer: "ada", amount: 10 });
  expect(await t.mutation(api.purchases.changeAmount, { purchaseId: id, amount: 50 })).toBeNull();
  expect(await t.run(async (ctx) => (await ctx.db.get("purchases", id))?.amount)).toBe(50);
  expect(await t.query(api.purchases.customerTotals, { customer: "ada" })).toEqual({ count: 2, total: 60 });
});

test("deletePurchase removes the purchase from the totals", async () => {
  const t = setup();
  const id = await t.mutation(api.purchases.addPurchase, { customer: "ada", amount: 30 });
  await t.mutation(api.purchases.addPurchase, { customer: "ada", amount: 10 });
  expect(await t.mutation(api.purchases.deletePurchase, { purchaseId: id })).toBeNull();
  expect(await t.query(api.purchases.customerTotals, { customer: "ada" })).toEqual({ count: 1, total: 10 });
  expect(await t.run(async (ctx) => await ctx.db.get("purchases", id))).toBeNull();
  await expect(t.mutation(api.purchases.deletePurchase, { purchaseId: id })).rejects.toThrow();
  await expect(t.mutation(api.purchases.changeAmount, { purchaseId: id, amount: 1 })).rejects.toThrow();
});

test("customerTotals reads the aggregate, not the table", async () => {
  const t = setup();
  await t.mutation(api.purchases.addPurchase, { customer: "ada", amount: 30 });
  await t.run(async (ctx) => {
    await ctx.db.insert("purchases", { customer: "ada", amount: 1000 });
  });
  expect(await t.query(api.purchases.customerTotals, { customer: "ada" })).toEqual({ count: 1, total: 30 });
});
