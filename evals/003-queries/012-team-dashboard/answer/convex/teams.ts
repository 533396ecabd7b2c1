import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const createTeam = mutation({
  args: {
    name: v.string(),
  },
  returns: v.id("teams"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("teams", { name: args.name });
  },
});

export const join = mutation({
  args: {
    teamId: v.id("teams"),
    userName: v.string(),
  },
  returns: v.id("memberships"),
  handler: async (ctx, args) => {
    const team = await ctx.db.get("teams", args.teamId);
    if (team === null) {
      throw new ConvexError("Team not found");
    }
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_user", (q) => q.eq("userName", args.userName))
      .collect();
    const existing = memberships.find((m) => m.teamId === args.teamId) ?? null;
    if (existing !== null) {
      return existing._id;
    }
    return await ctx.db.insert("memberships", { teamId: args.teamId, userName: args.userName });
  },
});

export const addTask = mutation({
  args: {
    teamId: v.id("teams"),
    title: v.string(),
    done: v.boolean(),
  },
  returns: v.id("tasks"),
  handler: async (ctx, args) => {
    const team = await ctx.db.get("teams", args.teamId);
    if (team === null) {
      throw new ConvexError("Team not found");
    }
    return await ctx.db.insert("tasks", { teamId: args.teamId, title: args.title, done: args.done });
  },
});

export const teamsOf = query({
  args: {
    userName: v.string(),
  },
  returns: v.array(
    v.object({
      _id: v.id("teams"),
      _creationTime: v.number(),
      name: v.string(),
    }),
  ),
  handler: async (ctx, args) => {
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_user", (q) => q.eq("userName", args.userName))
      .collect();
    const teams = await Promise.all(memberships.map((m) => ctx.db.get("teams", m.teamId)));
    return teams
      .filter((team) => team !== null)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  },
});

export const dashboard = query({
  args: {
    teamId: v.id("teams"),
  },
  returns: v.union(
    v.object({
      name: v.string(),
      members: v.number(),
      openTasks: v.number(),
      doneTasks: v.number(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const team = await ctx.db.get("teams", args.teamId);
    if (team === null) {
      return null;
    }
    const [members, open, done] = await Promise.all([
      ctx.db
        .query("memberships")
        .withIndex("by_team", (q) => q.eq("teamId", args.teamId))
        .collect(),
      ctx.db
        .query("tasks")
        .withIndex("by_team_and_done", (q) => q.eq("teamId", args.teamId).eq("done", false))
        .collect(),
      ctx.db
        .query("tasks")
        .withIndex("by_team_and_done", (q) => q.eq("teamId", args.teamId).eq("done", true))
        .collect(),
    ]);
    return { name: team.name, members: members.length, openTasks: open.length, doneTasks: done.length };
  },
});
