import { ConvexError, v } from "convex/values";
import { mutation, query } from "./_generated/server";
import { requireIdentity, requireMembership } from "./lib/access";

export const createTeam = mutation({
  args: { name: v.string() },
  returns: v.id("teams"),
  handler: async (ctx, args) => {
    const identity = await requireIdentity(ctx);
    const teamId = await ctx.db.insert("teams", { name: args.name });
    await ctx.db.insert("memberships", { teamId, userToken: identity.tokenIdentifier, role: "owner" });
    return teamId;
  },
});

export const myTeams = query({
  args: {},
  returns: v.array(
    v.object({
      teamId: v.id("teams"),
      name: v.string(),
      role: v.union(v.literal("owner"), v.literal("member")),
    }),
  ),
  handler: async (ctx) => {
    const identity = await requireIdentity(ctx);
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_user", (q) => q.eq("userToken", identity.tokenIdentifier))
      .collect();
    const teams = [];
    for (const m of memberships) {
      const team = await ctx.db.get("teams", m.teamId);
      if (team !== null) {
        teams.push({ teamId: m.teamId, name: team.name, role: m.role });
      }
    }
    return teams;
  },
});

export const addMember = mutation({
  args: { teamId: v.id("teams"), userToken: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const membership = await requireMembership(ctx, args.teamId);
    if (membership.role !== "owner") {
      throw new ConvexError({ code: "FORBIDDEN", message: "Only owners can add members" });
    }
    const existing = await ctx.db
      .query("memberships")
      .withIndex("by_team_and_user", (q) => q.eq("teamId", args.teamId).eq("userToken", args.userToken))
      .unique();
    if (existing === null) {
      await ctx.db.insert("memberships", { teamId: args.teamId, userToken: args.userToken, role: "member" });
    }
    return null;
  },
});

export const addNote = mutation({
  args: { teamId: v.id("teams"), text: v.string() },
  returns: v.id("notes"),
  handler: async (ctx, args) => {
    const membership = await requireMembership(ctx, args.teamId);
    return await ctx.db.insert("notes", {
      teamId: args.teamId,
      text: args.text,
      authorToken: membership.userToken,
    });
  },
});

export const listNotes = query({
  args: { teamId: v.id("teams") },
  returns: v.array(v.object({ text: v.string(), authorToken: v.string() })),
  handler: async (ctx, args) => {
    await requireMembership(ctx, args.teamId);
    const notes = await ctx.db
      .query("notes")
      .withIndex("by_team", (q) => q.eq("teamId", args.teamId))
      .collect();
    return notes.map((n) => ({ text: n.text, authorToken: n.authorToken }));
  },
});
