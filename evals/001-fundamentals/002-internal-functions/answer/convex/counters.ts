import { internalMutation, internalQuery, mutation } from "./_generated/server";
import { internal } from "./_generated/api";
import { v } from "convex/values";

export const applyIncrement = internalMutation({
  args: {
    name: v.string(),
    amount: v.number(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const existing = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", args.name))
      .unique();
    if (existing === null) {
      await ctx.db.insert("counters", { name: args.name, value: args.amount });
    } else {
      await ctx.db.patch("counters", existing._id, {
        value: existing.value + args.amount,
      });
    }
    return null;
  },
});

export const getValue = internalQuery({
  args: {
    name: v.string(),
  },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const counter = await ctx.db
      .query("counters")
      .withIndex("by_name", (q) => q.eq("name", args.name))
      .unique();
    return counter === null ? null : counter.value;
  },
});

export const increment = mutation({
  args: {
    name: v.string(),
    amount: v.number(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.scheduler.runAfter(0, internal.counters.applyIncrement, {
      name: args.name,
      amount: args.amount,
    });
    return null;
  },
});
