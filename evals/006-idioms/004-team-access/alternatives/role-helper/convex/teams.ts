import { v } from "convex/values";
import { mutation, query } from "./_generated/server";
import { requireIdentity, requireMembership, requireOwner } from "./lib/access";

export const createTeam = mutation({
  args: { name: v.string() },
  returns: v.id("teams"),
  handler: async (ctx, { name }) => {
    const { tokenIdentifier } = await requireIdentity(ctx);
    const teamId = await ctx.db.insert("teams", { name });
    await ctx.db.insert("memberships", { teamId, userToken: tokenIdentifier, role: "owner" });
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
    const { tokenIdentifier } = await requireIdentity(ctx);
    const memberships = await ctx.db
      .query("memberships")
      .withIndex("by_user", (q) => q.eq("userToken", tokenIdentifier))
      .collect();
    const teams = await Promise.all(memberships.map((m) => ctx.db.get("teams", m.teamId)));
    return memberships.flatMap((m, i) => {
      const team = teams[i];
      return team === null ? [] : [{ teamId: m.teamId, name: team.name, role: m.role }];
    });
  },
});

export const addMember = mutation({
  args: { teamId: v.id("teams"), userToken: v.string() },
  returns: v.null(),
  handler: async (ctx, { teamId, userToken }) => {
    await requireOwner(ctx, teamId);
    const already = await ctx.db
      .query("memberships")
      .withIndex("by_team_and_user", (q) => q.eq("teamId", teamId).eq("userToken", userToken))
      .first();
    if (!already) {
      await ctx.db.insert("memberships", { teamId, userToken, role: "member" });
    }
    return null;
  },
});

export const addNote = mutation({
  args: { teamId: v.id("teams"), text: v.string() },
  returns: v.id("notes"),
  handler: async (ctx, { teamId, text }) => {
    const { userToken } = await requireMembership(ctx, teamId);
    return await ctx.db.insert("notes", { teamId, text, authorToken: userToken });
  },
});

export const listNotes = query({
  args: { teamId: v.id("teams") },
  returns: v.array(v.object({ text: v.string(), authorToken: v.string() })),
  handler: async (ctx, { teamId }) => {
    await requireMembership(ctx, teamId);
    const out: { text: string; authorToken: string }[] = [];
    for await (const note of ctx.db
      .query("notes")
      .withIndex("by_team", (q) => q.eq("teamId", teamId))
      .order("asc")) {
      out.push({ text: note.text, authorToken: note.authorToken });
    }
    return out;
  },
});
