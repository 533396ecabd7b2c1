import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

const WEEK_MS = 604_800_000;
const entry = v.object({ player: v.string(), points: v.number() });

export const record = mutation({
  args: { player: v.string(), points: v.number() },
  returns: v.id("scores"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("scores", {
      player: args.player,
      points: args.points,
      recordedAt: Date.now(),
    });
  },
});

export const topScores = query({
  args: { limit: v.number() },
  returns: v.array(entry),
  handler: async (ctx, args) => {
    const scores = await ctx.db
      .query("scores")
      .withIndex("by_points")
      .order("desc")
      .take(args.limit);
    return scores.map((s) => ({ player: s.player, points: s.points }));
  },
});

export const weeklyTop = query({
  args: { now: v.number(), limit: v.number() },
  returns: v.array(entry),
  handler: async (ctx, args) => {
    const recent = await ctx.db
      .query("scores")
      .withIndex("by_recordedAt", (q) => q.gt("recordedAt", args.now - WEEK_MS).lte("recordedAt", args.now))
      .collect();
    recent.sort(
      (a, b) =>
        b.points - a.points ||
        a.recordedAt - b.recordedAt ||
        (a.player < b.player ? -1 : a.player > b.player ? 1 : 0),
    );
    return recent.slice(0, args.limit).map((s) => ({ player: s.player, points: s.points }));
  },
});
