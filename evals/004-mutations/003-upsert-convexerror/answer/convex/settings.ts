import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const set = mutation({
  args: {
    userId: v.string(),
    key: v.string(),
    value: v.string(),
  },
  returns: v.id("settings"),
  handler: async (ctx, args) => {
    if (args.key === "") {
      throw new ConvexError("key must not be empty");
    }
    if (args.value.length > 100) {
      throw new ConvexError("value must be at most 100 characters");
    }
    const existing = await ctx.db
      .query("settings")
      .withIndex("by_user_and_key", (q) => q.eq("userId", args.userId).eq("key", args.key))
      .unique();
    if (existing !== null) {
      await ctx.db.patch("settings", existing._id, { value: args.value });
      return existing._id;
    }
    return await ctx.db.insert("settings", {
      userId: args.userId,
      key: args.key,
      value: args.value,
    });
  },
});

export const get = query({
  args: {
    userId: v.string(),
    key: v.string(),
  },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, args) => {
    const setting = await ctx.db
      .query("settings")
      .withIndex("by_user_and_key", (q) => q.eq("userId", args.userId).eq("key", args.key))
      .unique();
    return setting === null ? null : setting.value;
  },
});

export const listForUser = query({
  args: {
    userId: v.string(),
  },
  returns: v.array(
    v.object({
      key: v.string(),
      value: v.string(),
    }),
  ),
  handler: async (ctx, args) => {
    const settings = await ctx.db
      .query("settings")
      .withIndex("by_user_and_key", (q) => q.eq("userId", args.userId))
      .collect();
    return settings.map((setting) => ({ key: setting.key, value: setting.value }));
  },
});
