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

async function snapshot(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => ({
    accounts: (await ctx.db.query("accounts").collect()).map((a) => [a.owner, a.balance]),
    transfers: (await ctx.db.query("transfers").collect()).length,
  }));
}

test("transfer moves money and records it", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.bank.open, { owner: "ann", initial: 100 });
  const b = await t.mutation(api.bank.open, { owner: "bob", initial: 5 });
  const id = await t.mutation(api.bank.transfer, { from: a, to: b, amount: 30 });
  expect(await t.query(api.bank.balance, { accountId: a })).toBe(70);
  expect(await t.query(api.bank.balance, { accountId: b })).toBe(35);
  const record = await t.run(async (ctx) => await ctx.db.get("transfers", id));
  expect(record).toMatchObject({ from: a, to: b, amount: 30 });
  const payer = await t.run(async (ctx) => (record === null ? null : await ctx.db.get("accounts", record.from)));
  expect(payer?.owner).toBe("ann");
  await t.mutation(api.bank.transfer, { from: a, to: b, amount: 70 });
  expect(await t.query(api.bank.balance, { accountId: a })).toBe(0);
});

test("insufficient funds: structured error and nothing changes", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.bank.open, { owner: "ann", initial: 20 });
  const b = await t.mutation(api.bank.open, { owner: "bob", initial: 0 });
  const before = await snapshot(t);
  expect(await errorData(t.mutation(api.bank.transfer, { from: a, to: b, amount: 21 }))).toEqual({
    code: "INSUFFICIENT_FUNDS",
    balance: 20,
  });
  expect(await snapshot(t)).toEqual(before);
});

test("invalid amounts and same-account transfers are rejected with their codes", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.bank.open, { owner: "ann", initial: 50 });
  const b = await t.mutation(api.bank.open, { owner: "bob", initial: 50 });
  const before = await snapshot(t);
  expect(await errorData(t.mutation(api.bank.transfer, { from: a, to: b, amount: 0 }))).toEqual({ code: "INVALID_AMOUNT" });
  expect(await errorData(t.mutation(api.bank.transfer, { from: a, to: b, amount: -5 }))).toEqual({ code: "INVALID_AMOUNT" });
  expect(await errorData(t.mutation(api.bank.transfer, { from: a, to: a, amount: 5 }))).toEqual({ code: "SAME_ACCOUNT" });
  expect(await snapshot(t)).toEqual(before);
  expect(await errorData(t.mutation(api.bank.open, { owner: "neg", initial: -1 }))).toEqual({ code: "INVALID_AMOUNT" });
  expect(await snapshot(t)).toEqual(before);
});

test("a missing account: NOT_FOUND and the other account is untouched", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.bank.open, { owner: "ann", initial: 50 });
  const gone = await t.mutation(api.bank.open, { owner: "gone", initial: 0 });
  await t.run(async (ctx) => {
    await ctx.db.delete("accounts", gone);
  });
  const before = await snapshot(t);
  expect(await errorData(t.mutation(api.bank.transfer, { from: a, to: gone, amount: 10 }))).toEqual({ code: "NOT_FOUND" });
  expect(await errorData(t.mutation(api.bank.transfer, { from: gone, to: a, amount: 10 }))).toEqual({ code: "NOT_FOUND" });
  expect(await snapshot(t)).toEqual(before);
  expect(await t.query(api.bank.balance, { accountId: gone })).toBeNull();
});
