import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  // Inserted out of price order on purpose.
  await t.mutation(api.products.add, { name: "desk", category: "office", price: 250 });
  await t.mutation(api.products.add, { name: "pen", category: "office", price: 2 });
  await t.mutation(api.products.add, { name: "tent", category: "outdoor", price: 1 });
  await t.mutation(api.products.add, { name: "chair", category: "office", price: 120 });
  await t.mutation(api.products.add, { name: "lamp", category: "office", price: 40 });
  await t.mutation(api.products.add, { name: "stapler", category: "office", price: 15 });
}

test("cheapest returns the lowest-priced product of the category", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const pen = await t.query(api.products.cheapest, { category: "office" });
  expect(pen).toMatchObject({ name: "pen", category: "office", price: 2 });
  expect(typeof pen?._id).toBe("string");
  expect(typeof pen?._creationTime).toBe("number");
  expect(await t.query(api.products.cheapest, { category: "outdoor" })).toMatchObject({ name: "tent" });
  expect(await t.query(api.products.cheapest, { category: "garden" })).toBeNull();
});

test("inRange includes both bounds and sorts by price", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.products.inRange, { category: "office", min: 15, max: 120 })).toEqual([
    "stapler",
    "lamp",
    "chair",
  ]);
  expect(await t.query(api.products.inRange, { category: "office", min: 0, max: 1000 })).toEqual([
    "pen",
    "stapler",
    "lamp",
    "chair",
    "desk",
  ]);
});

test("inRange never mixes categories and handles empty ranges", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.products.inRange, { category: "outdoor", min: 0, max: 1000 })).toEqual(["tent"]);
  expect(await t.query(api.products.inRange, { category: "office", min: 41, max: 119 })).toEqual([]);
  expect(await t.query(api.products.inRange, { category: "office", min: 40, max: 40 })).toEqual(["lamp"]);
});

test("priciest returns the 3 most expensive, most expensive first", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.products.priciest, { category: "office" })).toEqual([
    { name: "desk", price: 250 },
    { name: "chair", price: 120 },
    { name: "lamp", price: 40 },
  ]);
  expect(await t.query(api.products.priciest, { category: "outdoor" })).toEqual([{ name: "tent", price: 1 }]);
  expect(await t.query(api.products.priciest, { category: "garden" })).toEqual([]);
});
