import { ConvexError, v } from "convex/values";
import { mutation, query } from "./_generated/server";
import type { MutationCtx } from "./_generated/server";
import type { Doc, Id } from "./_generated/dataModel";

async function loadForChange(ctx: MutationCtx, accountId: Id<"accounts">, amount: number): Promise<Doc<"accounts">> {
  if (!(amount > 0)) {
    throw new ConvexError({ code: "INVALID_AMOUNT" });
  }
  const account = await ctx.db.get("accounts", accountId);
  if (account === null) {
    throw new ConvexError({ code: "NOT_FOUND" });
  }
  return account;
}

export const open = mutation({
  args: { owner: v.string() },
  returns: v.id("accounts"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("accounts", { owner: args.owner, balance: 0 });
  },
});

export const deposit = mutation({
  args: { accountId: v.id("accounts"), amount: v.number() },
  returns: v.number(),
  handler: async (ctx, args) => {
    const account = await loadForChange(ctx, args.accountId, args.amount);
    const balance = account.balance + args.amount;
    await ctx.db.patch("accounts", args.accountId, { balance });
    return balance;
  },
});

export const withdraw = mutation({
  args: { accountId: v.id("accounts"), amount: v.number() },
  returns: v.number(),
  handler: async (ctx, args) => {
    const account = await loadForChange(ctx, args.accountId, args.amount);
    if (account.balance < args.amount) {
      throw new ConvexError({ code: "INSUFFICIENT_FUNDS" });
    }
    const balance = account.balance - args.amount;
    await ctx.db.patch("accounts", args.accountId, { balance });
    return balance;
  },
});

export const getBalance = query({
  args: { accountId: v.id("accounts") },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const account = await ctx.db.get("accounts", args.accountId);
    return account === null ? null : account.balance;
  },
});
