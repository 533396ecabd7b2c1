import { ConvexError, v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const byHandle = query({
  args: { handle: v.string() },
  returns: v.union(v.null(), v.object({ displayName: v.string() })),
  handler: async (ctx, args) => {
    const user = await ctx.db
      .query("users")
      .withIndex("by_handle", (q) => q.eq("handle", args.handle))
      .unique();
    return user === null ? null : { displayName: user.displayName };
  },
});

export const claimHandle = mutation({
  args: { handle: v.string(), displayName: v.string() },
  returns: v.id("users"),
  handler: async (ctx, args) => {
    if (!/^[a-z0-9_]{3,20}$/.test(args.handle)) {
      throw new ConvexError({ code: "INVALID_HANDLE" });
    }
    const existing = await ctx.db
      .query("users")
      .withIndex("by_handle", (q) => q.eq("handle", args.handle))
      .unique();
    if (existing !== null) {
      throw new ConvexError({ code: "HANDLE_TAKEN" });
    }
    return await ctx.db.insert("users", { handle: args.handle, displayName: args.displayName });
  },
});
