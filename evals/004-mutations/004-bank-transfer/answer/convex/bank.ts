import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const open = mutation({
  args: {
    owner: v.string(),
    initial: v.number(),
  },
  returns: v.id("accounts"),
  handler: async (ctx, args) => {
    if (args.initial < 0) {
      throw new ConvexError({ code: "INVALID_AMOUNT" });
    }
    return await ctx.db.insert("accounts", { owner: args.owner, balance: args.initial });
  },
});

export const transfer = mutation({
  args: {
    from: v.id("accounts"),
    to: v.id("accounts"),
    amount: v.number(),
  },
  returns: v.id("transfers"),
  handler: async (ctx, args) => {
    if (args.amount <= 0) {
      throw new ConvexError({ code: "INVALID_AMOUNT" });
    }
    if (args.from === args.to) {
      throw new ConvexError({ code: "SAME_ACCOUNT" });
    }
    const from = await ctx.db.get("accounts", args.from);
    const to = await ctx.db.get("accounts", args.to);
    if (from === null || to === null) {
      throw new ConvexError({ code: "NOT_FOUND" });
    }
    if (from.balance < args.amount) {
      throw new ConvexError({ code: "INSUFFICIENT_FUNDS", balance: from.balance });
    }
    await ctx.db.patch("accounts", from._id, { balance: from.balance - args.amount });
    await ctx.db.patch("accounts", to._id, { balance: to.balance + args.amount });
    return await ctx.db.insert("transfers", { from: args.from, to: args.to, amount: args.amount });
  },
});

export const balance = query({
  args: {
    accountId: v.id("accounts"),
  },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const account = await ctx.db.get("accounts", args.accountId);
    return account === null ? null : account.balance;
  },
});
