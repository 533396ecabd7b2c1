import { v } from "convex/values";
import { internalMutation, query } from "./_generated/server";

export const saveHash = internalMutation({
  args: { text: v.string(), hash: v.string() },
  returns: v.id("hashes"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("hashes", { text: args.text, hash: args.hash });
  },
});

export const getByHash = query({
  args: { hash: v.string() },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("hashes")
      .withIndex("by_hash", (q) => q.eq("hash", args.hash))
      .unique();
    return row === null ? null : row.text;
  },
});
