import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  await t.mutation(api.expenses.add, { userId: "u1", category: "food", amount: 12, date: 1000 });
  await t.mutation(api.expenses.add, { userId: "u1", category: "travel", amount: 300, date: 2000 });
  await t.mutation(api.expenses.add, { userId: "u2", category: "food", amount: 999, date: 1500 });
  await t.mutation(api.expenses.add, { userId: "u1", category: "food", amount: 8, date: 3000 });
  await t.mutation(api.expenses.add, { userId: "u1", category: "books", amount: 25, date: 2500 });
  await t.mutation(api.expenses.add, { userId: "u1", category: "food", amount: 40, date: 4000 });
}

test("summary aggregates the user's expenses in [from, to)", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.expenses.summary, { userId: "u1", from: 1000, to: 4000 })).toEqual({
    count: 4,
    total: 345,
    largest: 300,
    byCategory: [
      { category: "books", total: 25 },
      { category: "food", total: 20 },
      { category: "travel", total: 300 },
    ],
  });
});

test("summary bounds: from is inclusive, to is exclusive", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const s = await t.query(api.expenses.summary, { userId: "u1", from: 2000, to: 3000 });
  expect(s).toEqual({
    count: 2,
    total: 325,
    largest: 300,
    byCategory: [
      { category: "books", total: 25 },
      { category: "travel", total: 300 },
    ],
  });
  const last = await t.query(api.expenses.summary, { userId: "u1", from: 3001, to: 4001 });
  expect(last).toEqual({ count: 1, total: 40, largest: 40, byCategory: [{ category: "food", total: 40 }] });
});

test("summary of an empty range", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const empty = { count: 0, total: 0, largest: null, byCategory: [] };
  expect(await t.query(api.expenses.summary, { userId: "u1", from: 5000, to: 9000 })).toEqual(empty);
  expect(await t.query(api.expenses.summary, { userId: "nobody", from: 0, to: 9000 })).toEqual(empty);
});

test("summary never mixes users", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.expenses.summary, { userId: "u2", from: 0, to: 9000 })).toEqual({
    count: 1,
    total: 999,
    largest: 999,
    byCategory: [{ category: "food", total: 999 }],
  });
});
