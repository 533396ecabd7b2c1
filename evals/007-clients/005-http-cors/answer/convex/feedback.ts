import { v } from "convex/values";
import { internalMutation, internalQuery } from "./_generated/server";

export const submit = internalMutation({
  args: { email: v.string(), message: v.string() },
  returns: v.id("feedback"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("feedback", { email: args.email, message: args.message });
  },
});

export const count = internalQuery({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const all = await ctx.db.query("feedback").collect();
    return all.length;
  },
});
