import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import { ConvexError } from "convex/values";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

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

async function balances(t: ReturnType<typeof convexTest>) {
  const docs = await t.run(async (ctx) => await ctx.db.query("accounts").collect());
  return docs.map((d) => d.balance);
}

test("open, deposit and withdraw return the new balances", async () => {
  const t = convexTest(schema, modules);
  const accountId = await t.mutation(api.accounts.open, { owner: "ada" });
  expect(await t.mutation(api.accounts.deposit, { accountId, amount: 50 })).toBe(50);
  expect(await t.mutation(api.accounts.withdraw, { accountId, amount: 20 })).toBe(30);
  expect(await t.mutation(api.accounts.withdraw, { accountId, amount: 30 })).toBe(0);
  const doc = await t.run(async (ctx) => await ctx.db.get("accounts", accountId));
  expect(doc).toMatchObject({ owner: "ada", balance: 0 });
});

test("opening a second account for the same owner throws ALREADY_EXISTS", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.accounts.open, { owner: "bob" });
  expect(await errorData(t.mutation(api.accounts.open, { owner: "bob" }))).toEqual({
    code: "ALREADY_EXISTS",
    owner: "bob",
  });
  expect(await balances(t)).toEqual([0]);
});

test("a non-positive amount throws INVALID_AMOUNT", async () => {
  const t = convexTest(schema, modules);
  const accountId = await t.mutation(api.accounts.open, { owner: "cy" });
  await t.mutation(api.accounts.deposit, { accountId, amount: 10 });
  expect(await errorData(t.mutation(api.accounts.deposit, { accountId, amount: 0 }))).toEqual({
    code: "INVALID_AMOUNT",
  });
  expect(await errorData(t.mutation(api.accounts.withdraw, { accountId, amount: -5 }))).toEqual({
    code: "INVALID_AMOUNT",
  });
  expect(await balances(t)).toEqual([10]);
});

test("a missing account throws NOT_FOUND", async () => {
  const t = convexTest(schema, modules);
  const accountId = await t.mutation(api.accounts.open, { owner: "dee" });
  await t.run(async (ctx) => {
    await ctx.db.delete("accounts", accountId);
  });
  expect(await errorData(t.mutation(api.accounts.deposit, { accountId, amount: 5 }))).toEqual({
    code: "NOT_FOUND",
  });
  expect(await errorData(t.mutation(api.accounts.withdraw, { accountId, amount: 5 }))).toEqual({
    code: "NOT_FOUND",
  });
});

test("withdrawing too much throws INSUFFICIENT_FUNDS with the balance", async () => {
  const t = convexTest(schema, modules);
  const accountId = await t.mutation(api.accounts.open, { owner: "eve" });
  await t.mutation(api.accounts.deposit, { accountId, amount: 12 });
  expect(await errorData(t.mutation(api.accounts.withdraw, { accountId, amount: 13 }))).toEqual({
    code: "INSUFFICIENT_FUNDS",
    balance: 12,
  });
  expect(await balances(t)).toEqual([12]);
});
