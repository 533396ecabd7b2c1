import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

// The error a call rejected with; fails the test if it did not reject.
async function rejection(p: Promise<unknown>): Promise<{ data?: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as { data?: unknown };
  }
  throw new Error("expected the call to throw");
}

async function code(p: Promise<unknown>): Promise<unknown> {
  const data = (await rejection(p)).data as { code?: unknown; message?: unknown } | undefined;
  expect(typeof data?.message).toBe("string");
  return data?.code;
}

async function count(t: ReturnType<typeof convexTest>) {
  return (await t.run(async (ctx) => await ctx.db.query("products").collect())).length;
}

const book = { name: "Dune", priceCents: 1999, category: "book" as const, tags: ["sf"] };

test("addProduct stores a trimmed, valid product", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.products.addProduct, { ...book, name: "  Dune  ", discountPercent: 10 });
  expect(await t.run(async (ctx) => await ctx.db.get("products", id))).toMatchObject({
    name: "Dune", priceCents: 1999, category: "book", tags: ["sf"], discountPercent: 10,
  });
  const plain = await t.mutation(api.products.addProduct, { ...book, name: "Emma", priceCents: 0, tags: [] });
  const doc = await t.run(async (ctx) => await ctx.db.get("products", plain));
  expect(doc!.discountPercent).toBeUndefined();
});

test("the args validator rejects a wrong category and a missing field", async () => {
  const t = convexTest(schema, modules);
  await expect(t.mutation(api.products.addProduct, { ...book, category: "toys" } as any)).rejects.toThrow();
  const { tags: _tags, ...noTags } = book;
  await expect(t.mutation(api.products.addProduct, noTags as any)).rejects.toThrow();
  await expect(t.mutation(api.products.addProduct, { ...book, priceCents: "1999" } as any)).rejects.toThrow();
  expect(await count(t)).toBe(0);
});

test("addProduct throws INVALID_ARGUMENT for what validators cannot express", async () => {
  const t = convexTest(schema, modules);
  expect(await code(t.mutation(api.products.addProduct, { ...book, name: "   " }))).toBe("INVALID_ARGUMENT");
  expect(await code(t.mutation(api.products.addProduct, { ...book, priceCents: -1 }))).toBe("INVALID_ARGUMENT");
  expect(await code(t.mutation(api.products.addProduct, { ...book, priceCents: 12.5 }))).toBe("INVALID_ARGUMENT");
  expect(await code(t.mutation(api.products.addProduct, { ...book, discountPercent: 95 }))).toBe("INVALID_ARGUMENT");
  expect(await code(t.mutation(api.products.addProduct, { ...book, discountPercent: -5 }))).toBe("INVALID_ARGUMENT");
  expect(await count(t)).toBe(0);
  await t.mutation(api.products.addProduct, { ...book, discountPercent: 90 });
  await t.mutation(api.products.addProduct, { ...book, discountPercent: 0 });
  expect(await count(t)).toBe(2);
});

test("setDiscount sets and clears the discount and returns null", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.products.addProduct, book);
  expect(await t.mutation(api.products.setDiscount, { productId: id, discountPercent: 25 })).toBeNull();
  expect(await t.query(api.products.listByCategory, { category: "book" })).toEqual([
    { name: "Dune", priceCents: 1999, finalPriceCents: 1499 },
  ]);
  expect(await t.mutation(api.products.setDiscount, { productId: id, discountPercent: null })).toBeNull();
  const doc = await t.run(async (ctx) => await ctx.db.get("products", id));
  expect(doc).not.toHaveProperty("discountPercent");
  expect(await code(t.mutation(api.products.setDiscount, { productId: id, discountPercent: 91 }))).toBe("INVALID_ARGUMENT");
  await t.run(async (ctx) => await ctx.db.delete("products", id));
  expect(await code(t.mutation(api.products.setDiscount, { productId: id, discountPercent: 5 }))).toBe("NOT_FOUND");
});

test("listByCategory returns one category oldest first with final prices", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.products.addProduct, { name: "Chess", priceCents: 1000, category: "game", tags: [], discountPercent: 33 });
  await t.mutation(api.products.addProduct, book);
  await t.mutation(api.products.addProduct, { name: "Go", priceCents: 2500, category: "game", tags: ["board"] });
  expect(await t.query(api.products.listByCategory, { category: "game" })).toEqual([
    { name: "Chess", priceCents: 1000, finalPriceCents: 670 },
    { name: "Go", priceCents: 2500, finalPriceCents: 2500 },
  ]);
  expect(await t.query(api.products.listByCategory, { category: "music" })).toEqual([]);
});

test("findByName returns the first match's id or null", async () => {
  const t = convexTest(schema, modules);
  const first = await t.mutation(api.products.addProduct, book);
  await t.mutation(api.products.addProduct, { ...book, priceCents: 5 });
  expect(await t.query(api.products.findByName, { name: "Dune" })).toBe(first);
  expect(await t.query(api.products.findByName, { name: "dune" })).toBeNull();
});
