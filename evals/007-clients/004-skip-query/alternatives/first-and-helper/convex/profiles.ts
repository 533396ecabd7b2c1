import { v } from "convex/values";
import { mutation, query } from "./_generated/server";
import type { QueryCtx } from "./_generated/server";

const profileView = v.object({ _id: v.id("profiles"), name: v.string(), bio: v.string() });

async function findByName(ctx: QueryCtx, name: string) {
  return await ctx.db
    .query("profiles")
    .withIndex("by_name", (q) => q.eq("name", name))
    .first();
}

export const create = mutation({
  args: { name: v.string(), bio: v.string() },
  returns: v.id("profiles"),
  handler: async (ctx, { name, bio }) => await ctx.db.insert("profiles", { name, bio }),
});

export const getByName = query({
  args: { name: v.string() },
  returns: v.union(profileView, v.null()),
  handler: async (ctx, { name }) => {
    const found = await findByName(ctx, name);
    return found && { _id: found._id, name: found.name, bio: found.bio };
  },
});
