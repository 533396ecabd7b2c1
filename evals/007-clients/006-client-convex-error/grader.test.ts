import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import { getFunctionName } from "convex/server";
import { ConvexError } from "convex/values";
import type { ConvexHttpClient } from "convex/browser";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { deposit, withdraw } from "./src/bank";
const modules = import.meta.glob("./convex/**/*.*s");

// A stand-in for ConvexHttpClient that records the references it is called with and forwards the
// calls to the in-memory backend (errors, ConvexError included, propagate unchanged).
function fakeClient(t: ReturnType<typeof convexTest>) {
  const calls: { name: string; args: unknown }[] = [];
  const client = {
    query: async (ref: any, args: any) => await t.query(ref, args),
    mutation: async (ref: any, args: any) => {
      calls.push({ name: getFunctionName(ref), args });
      return await t.mutation(ref, args);
    },
    action: async () => {
      throw new Error("no actions expected");
    },
  };
  return { client: client as unknown as ConvexHttpClient, calls };
}

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    return ((error as ConvexError<any>).data as { code?: unknown }).code;
  }
  throw new Error("expected the call to throw");
}

test("backend: open, deposit, withdraw, getBalance", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.accounts.open, { owner: "ada" });
  expect(await t.query(api.accounts.getBalance, { accountId: id })).toBe(0);
  expect(await t.mutation(api.accounts.deposit, { accountId: id, amount: 50 })).toBe(50);
  expect(await t.mutation(api.accounts.withdraw, { accountId: id, amount: 20 })).toBe(30);
  expect(await t.run(async (ctx) => await ctx.db.get("accounts", id))).toMatchObject({ owner: "ada", balance: 30 });
});

test("backend: failures throw ConvexError with a code and change nothing", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.accounts.open, { owner: "ada" });
  await t.mutation(api.accounts.deposit, { accountId: id, amount: 10 });
  expect(await codeOf(t.mutation(api.accounts.withdraw, { accountId: id, amount: 11 }))).toBe("INSUFFICIENT_FUNDS");
  expect(await codeOf(t.mutation(api.accounts.deposit, { accountId: id, amount: 0 }))).toBe("INVALID_AMOUNT");
  expect(await codeOf(t.mutation(api.accounts.withdraw, { accountId: id, amount: -5 }))).toBe("INVALID_AMOUNT");
  expect(await t.query(api.accounts.getBalance, { accountId: id })).toBe(10);
  await t.run(async (ctx) => await ctx.db.delete("accounts", id));
  expect(await codeOf(t.mutation(api.accounts.deposit, { accountId: id, amount: 5 }))).toBe("NOT_FOUND");
  expect(await t.query(api.accounts.getBalance, { accountId: id })).toBeNull();
});

test("client deposit and withdraw resolve to { ok: true, balance }", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.accounts.open, { owner: "ada" });
  const { client, calls } = fakeClient(t);
  expect(await deposit(client, id, 40)).toEqual({ ok: true, balance: 40 });
  expect(await withdraw(client, id, 15)).toEqual({ ok: true, balance: 25 });
  expect(calls).toEqual([
    { name: "accounts:deposit", args: { accountId: id, amount: 40 } },
    { name: "accounts:withdraw", args: { accountId: id, amount: 15 } },
  ]);
});

test("client turns ConvexError into { ok: false, code }", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.accounts.open, { owner: "ada" });
  const { client } = fakeClient(t);
  expect(await withdraw(client, id, 1)).toEqual({ ok: false, code: "INSUFFICIENT_FUNDS" });
  expect(await deposit(client, id, -1)).toEqual({ ok: false, code: "INVALID_AMOUNT" });
  await t.run(async (ctx) => await ctx.db.delete("accounts", id));
  expect(await withdraw(client, id, 1)).toEqual({ ok: false, code: "NOT_FOUND" });
});

test("client re-throws errors that are not ConvexError", async () => {
  const boom = new Error("network down");
  const client = {
    mutation: async () => {
      throw boom;
    },
  } as unknown as ConvexHttpClient;
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.accounts.open, { owner: "ada" });
  await expect(deposit(client, id, 1)).rejects.toBe(boom);
  await expect(withdraw(client, id, 1)).rejects.toBe(boom);
});
