import { v } from "convex/values";
import { mutation, query } from "./_generated/server";
import type { MutationCtx } from "./_generated/server";
import type { Id } from "./_generated/dataModel";
import { bankError } from "./errors";

async function applyDelta(ctx: MutationCtx, accountId: Id<"accounts">, amount: number, sign: 1 | -1) {
  if (amount <= 0 || Number.isNaN(amount)) throw bankError("INVALID_AMOUNT");
  const account = await ctx.db.get("accounts", accountId);
  if (!account) throw bankError("NOT_FOUND");
  const balance = account.balance + sign * amount;
  if (balance < 0) throw bankError("INSUFFICIENT_FUNDS");
  await ctx.db.patch("accounts", account._id, { balance });
  return balance;
}

const change = { accountId: v.id("accounts"), amount: v.number() };

export const open = mutation({
  args: { owner: v.string() },
  returns: v.id("accounts"),
  handler: (ctx, { owner }) => ctx.db.insert("accounts", { owner, balance: 0 }),
});

export const deposit = mutation({
  args: change,
  returns: v.number(),
  handler: (ctx, { accountId, amount }) => applyDelta(ctx, accountId, amount, 1),
});

export const withdraw = mutation({
  args: change,
  returns: v.number(),
  handler: (ctx, { accountId, amount }) => applyDelta(ctx, accountId, amount, -1),
});

export const getBalance = query({
  args: { accountId: v.id("accounts") },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, { accountId }) => (await ctx.db.get("accounts", accountId))?.balance ?? null,
});
