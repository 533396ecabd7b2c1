import { v } from "convex/values";
import { mutation, query } from "./_generated/server";
import type { Doc } from "./_generated/dataModel";

const DAY_MS = 24 * 60 * 60 * 1000;

function byRank(a: Doc<"scores">, b: Doc<"scores">): number {
  if (a.points !== b.points) return b.points - a.points;
  if (a.recordedAt !== b.recordedAt) return a.recordedAt - b.recordedAt;
  return a.player.localeCompare(b.player);
}

export const record = mutation({
  args: { player: v.string(), points: v.number() },
  returns: v.id("scores"),
  handler: async (ctx, args) => await ctx.db.insert("scores", { ...args, recordedAt: Date.now() }),
});

export const topScores = query({
  args: { limit: v.number() },
  returns: v.array(v.object({ player: v.string(), points: v.number() })),
  handler: async (ctx, { limit }) => {
    const top = await ctx.db.query("scores").withIndex("by_points").order("desc").take(limit);
    return top.map(({ player, points }) => ({ player, points }));
  },
});

export const weeklyTop = query({
  args: { now: v.number(), limit: v.number() },
  returns: v.array(v.object({ player: v.string(), points: v.number() })),
  handler: async (ctx, { now, limit }) => {
    const since = now - 7 * DAY_MS;
    const inWindow = await ctx.db
      .query("scores")
      .withIndex("by_recordedAt", (q) => q.gt("recordedAt", since).lte("recordedAt", now))
      .collect();
    return [...inWindow]
      .sort(byRank)
      .slice(0, limit)
      .map(({ player, points }) => ({ player, points }));
  },
});
