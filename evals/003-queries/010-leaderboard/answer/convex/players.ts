import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const register = mutation({
  args: {
    handle: v.string(),
  },
  returns: v.id("players"),
  handler: async (ctx, args) => {
    const existing = await ctx.db
      .query("players")
      .withIndex("by_handle", (q) => q.eq("handle", args.handle))
      .unique();
    if (existing !== null) {
      throw new ConvexError("Handle already taken");
    }
    return await ctx.db.insert("players", { handle: args.handle, score: 0 });
  },
});

export const addPoints = mutation({
  args: {
    handle: v.string(),
    points: v.number(),
  },
  returns: v.number(),
  handler: async (ctx, args) => {
    const player = await ctx.db
      .query("players")
      .withIndex("by_handle", (q) => q.eq("handle", args.handle))
      .unique();
    if (player === null) {
      throw new ConvexError("Unknown player");
    }
    const score = player.score + args.points;
    await ctx.db.patch("players", player._id, { score });
    return score;
  },
});

export const getPlayer = query({
  args: {
    handle: v.string(),
  },
  returns: v.union(
    v.object({
      _id: v.id("players"),
      _creationTime: v.number(),
      handle: v.string(),
      score: v.number(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("players")
      .withIndex("by_handle", (q) => q.eq("handle", args.handle))
      .unique();
  },
});

export const top = query({
  args: {},
  returns: v.array(
    v.object({
      handle: v.string(),
      score: v.number(),
    }),
  ),
  handler: async (ctx) => {
    const players = await ctx.db.query("players").withIndex("by_score").order("desc").take(3);
    return players.map((player) => ({ handle: player.handle, score: player.score }));
  },
});

export const rankOf = query({
  args: {
    handle: v.string(),
  },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const player = await ctx.db
      .query("players")
      .withIndex("by_handle", (q) => q.eq("handle", args.handle))
      .unique();
    if (player === null) {
      return null;
    }
    const ahead = await ctx.db
      .query("players")
      .withIndex("by_score", (q) => q.gt("score", player.score))
      .collect();
    return ahead.length + 1;
  },
});
