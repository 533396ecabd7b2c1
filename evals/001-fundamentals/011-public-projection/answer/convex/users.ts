import { internalMutation, internalQuery, query } from "./_generated/server";
import { v } from "convex/values";

const role = v.union(v.literal("admin"), v.literal("member"));

export const createUser = internalMutation({
  args: {
    name: v.string(),
    email: v.string(),
    role: role,
    apiToken: v.string(),
  },
  returns: v.id("users"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("users", {
      name: args.name,
      email: args.email,
      role: args.role,
      apiToken: args.apiToken,
    });
  },
});

export const getByToken = internalQuery({
  args: {
    apiToken: v.string(),
  },
  returns: v.union(
    v.object({
      _id: v.id("users"),
      _creationTime: v.number(),
      name: v.string(),
      email: v.string(),
      role: role,
      apiToken: v.string(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("users")
      .withIndex("by_token", (q) => q.eq("apiToken", args.apiToken))
      .unique();
  },
});

export const publicProfile = query({
  args: {
    userId: v.id("users"),
  },
  returns: v.union(
    v.object({
      name: v.string(),
      role: role,
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const user = await ctx.db.get("users", args.userId);
    if (user === null) {
      return null;
    }
    return { name: user.name, role: user.role };
  },
});

export const listMembers = query({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("users"),
      name: v.string(),
    }),
  ),
  handler: async (ctx) => {
    const users = await ctx.db.query("users").order("asc").collect();
    return users
      .filter((user) => user.role === "member")
      .map((user) => ({ _id: user._id, name: user.name }));
  },
});
