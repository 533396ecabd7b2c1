import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

async function setup() {
  const t = convexTest(schema, modules);
  await t.run(async (ctx) => {
    await ctx.db.insert("items", { sku: "A-1", quantity: 3 });
    await ctx.db.insert("items", { sku: "B-2", quantity: 10 });
  });
  return t;
}

test("restock adds to the quantity and returns the new value", async () => {
  const t = await setup();
  expect(await t.action(api.inventory.restock, { sku: "A-1", amount: 5 })).toBe(8);
  expect(await t.action(api.inventory.restock, { sku: "A-1", amount: 2 })).toBe(10);
  expect(await t.query(api.inventory.getQuantity, { sku: "A-1" })).toBe(10);
  expect(await t.query(api.inventory.getQuantity, { sku: "B-2" })).toBe(10);
});

test("restock throws for an unknown SKU or a non-positive amount, without changes", async () => {
  const t = await setup();
  await expect(t.action(api.inventory.restock, { sku: "nope", amount: 1 })).rejects.toThrow();
  await expect(t.action(api.inventory.restock, { sku: "A-1", amount: 0 })).rejects.toThrow();
  await expect(t.action(api.inventory.restock, { sku: "A-1", amount: -4 })).rejects.toThrow();
  expect(await t.query(api.inventory.getQuantity, { sku: "A-1" })).toBe(3);
  expect(await t.query(api.inventory.getQuantity, { sku: "nope" })).toBeNull();
});

test("internal getBySku and setQuantity", async () => {
  const t = await setup();
  const item = await t.query(internal.inventory.getBySku, { sku: "B-2" });
  expect(item).toMatchObject({ sku: "B-2", quantity: 10 });
  expect(await t.query(internal.inventory.getBySku, { sku: "zzz" })).toBeNull();
  expect(await t.mutation(internal.inventory.setQuantity, { itemId: item!._id, quantity: 42 })).toBeNull();
  expect(await t.query(api.inventory.getQuantity, { sku: "B-2" })).toBe(42);
});
