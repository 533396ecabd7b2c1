import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

const role = v.union(v.literal("owner"), v.literal("admin"), v.literal("member"));

export const createUser = mutation({
  args: {
    name: v.string(),
  },
  returns: v.id("users"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("users", { name: args.name });
  },
});

export const createTeam = mutation({
  args: {
    name: v.string(),
    ownerId: v.id("users"),
  },
  returns: v.id("teams"),
  handler: async (ctx, args) => {
    const owner = await ctx.db.get("users", args.ownerId);
    if (owner === null) {
      throw new ConvexError({ code: "NOT_FOUND" });
    }
    const teamId = await ctx.db.insert("teams", { name: args.name });
    await ctx.db.insert("memberships", { teamId, userId: args.ownerId, role: "owner" });
    return teamId;
  },
});

export const addMember = mutation({
  args: {
    teamId: v.id("teams"),
    userId: v.id("users"),
    role: v.union(v.literal("admin"), v.literal("member")),
  },
  returns: v.id("memberships"),
  handler: async (ctx, args) => {
    const team = await ctx.db.get("teams", args.teamId);
    const user = await ctx.db.get("users", args.userId);
    if (team === null || user === null) {
      throw new ConvexError({ code: "NOT_FOUND" });
    }
    const existing = await ctx.db
      .query("memberships")
      .withIndex("by_user_and_team", (q) => q.eq("userId", args.userId).eq("teamId", args.teamId))
      .first();
    if (existing !== null) {
      throw new ConvexError({ code: "ALREADY_MEMBER" });
    }
    return await ctx.db.insert("memberships", {
      teamId: args.teamId,
      userId: args.userId,
      role: args.role,
    });
  },
});

export const membersByRole = query({
  args: {
    teamId: v.id("teams"),
    role: role,
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_team_and_role", (q) => q.eq("teamId", args.teamId).eq("role", args.role))
      .collect();
    const users = await Promise.all(memberships.map((m) => ctx.db.get("users", m.userId)));
    return users.flatMap((user) => (user === null ? [] : [user.name]));
  },
});

export const teamsOf = query({
  args: {
    userId: v.id("users"),
  },
  returns: v.array(v.object({ team: v.string(), role: role })),
  handler: async (ctx, args) => {
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_user_and_team", (q) => q.eq("userId", args.userId))
      .collect();
    const result = [];
    for (const membership of memberships) {
      const team = await ctx.db.get("teams", membership.teamId);
      if (team !== null) {
        result.push({ team: team.name, role: membership.role });
      }
    }
    return result;
  },
});
