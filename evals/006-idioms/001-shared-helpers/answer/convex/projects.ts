import { v } from "convex/values";
import { mutation, query } from "./_generated/server";
import { getUserByEmail, requireUserByEmail } from "./model/users";

export const create = mutation({
  args: { email: v.string(), name: v.string() },
  returns: v.id("projects"),
  handler: async (ctx, args) => {
    const owner = await requireUserByEmail(ctx, args.email);
    return await ctx.db.insert("projects", { name: args.name, ownerId: owner._id });
  },
});

export const listForEmail = query({
  args: { email: v.string() },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const user = await getUserByEmail(ctx, args.email);
    if (user === null) {
      return [];
    }
    const projects = await ctx.db
      .query("projects")
      .withIndex("by_owner", (q) => q.eq("ownerId", user._id))
      .order("asc")
      .collect();
    return projects.map((p) => p.name);
  },
});

export const getNames = query({
  args: { ids: v.array(v.id("projects")) },
  returns: v.array(v.union(v.string(), v.null())),
  handler: async (ctx, args) => {
    const projects = await Promise.all(args.ids.map((id) => ctx.db.get("projects", id)));
    return projects.map((p) => (p === null ? null : p.name));
  },
});
