import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const create = mutation({
  args: { name: v.string(), bio: v.string() },
  returns: v.id("profiles"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("profiles", { name: args.name, bio: args.bio });
  },
});

export const getByName = query({
  args: { name: v.string() },
  returns: v.union(
    v.null(),
    v.object({ _id: v.id("profiles"), name: v.string(), bio: v.string() }),
  ),
  handler: async (ctx, args) => {
    const profile = await ctx.db
      .query("profiles")
      .withIndex("by_name", (q) => q.eq("name", args.name))
      .unique();
    if (profile === null) {
      return null;
    }
    return { _id: profile._id, name: profile.name, bio: profile.bio };
  },
});
