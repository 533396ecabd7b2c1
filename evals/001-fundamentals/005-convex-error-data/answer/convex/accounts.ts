import { mutation } from "./_generated/server";
import type { MutationCtx } from "./_generated/server";
import type { Doc, Id } from "./_generated/dataModel";
import { ConvexError, v } from "convex/values";

export const open = mutation({
  args: {
    owner: v.string(),
  },
  returns: v.id("accounts"),
  handler: async (ctx, args) => {
    const existing = await ctx.db
      .query("accounts")
      .withIndex("by_owner", (q) => q.eq("owner", args.owner))
      .unique();
    if (existing !== null) {
      throw new ConvexError({ code: "ALREADY_EXISTS", owner: args.owner });
    }
    return await ctx.db.insert("accounts", { owner: args.owner, balance: 0 });
  },
});

async function loadAccount(
  ctx: MutationCtx,
  accountId: Id<"accounts">,
  amount: number,
): Promise<Doc<"accounts">> {
  if (amount <= 0) {
    throw new ConvexError({ code: "INVALID_AMOUNT" });
  }
  const account = await ctx.db.get("accounts", accountId);
  if (account === null) {
    throw new ConvexError({ code: "NOT_FOUND" });
  }
  return account;
}

export const deposit = mutation({
  args: {
    accountId: v.id("accounts"),
    amount: v.number(),
  },
  returns: v.number(),
  handler: async (ctx, args) => {
    const account = await loadAccount(ctx, args.accountId, args.amount);
    const balance = account.balance + args.amount;
    await ctx.db.patch("accounts", account._id, { balance });
    return balance;
  },
});

export const withdraw = mutation({
  args: {
    accountId: v.id("accounts"),
    amount: v.number(),
  },
  returns: v.number(),
  handler: async (ctx, args) => {
    const account = await loadAccount(ctx, args.accountId, args.amount);
    if (args.amount > account.balance) {
      throw new ConvexError({ code: "INSUFFICIENT_FUNDS", balance: account.balance });
    }
    const balance = account.balance - args.amount;
    await ctx.db.patch("accounts", account._id, { balance });
    return balance;
  },
});
