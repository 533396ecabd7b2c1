import { v } from "convex/values";
import { mutation } from "./_generated/server";
import { internal } from "./_generated/api";

export const signUp = mutation({
  args: { name: v.string(), email: v.string() },
  returns: v.id("users"),
  handler: async (ctx, args) => {
    const userId = await ctx.db.insert("users", { name: args.name, email: args.email });
    await ctx.scheduler.runAfter(0, internal.emails.sendWelcome, { userId });
    return userId;
  },
});
