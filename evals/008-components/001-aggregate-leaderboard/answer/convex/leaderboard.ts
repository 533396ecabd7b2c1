import { TableAggregate } from "@convex-dev/aggregate";
import { ConvexError, v } from "convex/values";
import { components } from "./_generated/api";
import type { DataModel } from "./_generated/dataModel";
import { mutation, query } from "./_generated/server";

// Sorted by points, highest first (the key is negated).
const leaderboard = new TableAggregate<{
  Key: number;
  DataModel: DataModel;
  TableName: "scores";
}>(components.aggregate, {
  sortKey: (doc) => -doc.points,
  sumValue: (doc) => doc.points,
});

export const addScore = mutation({
  args: { player: v.string(), points: v.number() },
  returns: v.id("scores"),
  handler: async (ctx, args) => {
    const id = await ctx.db.insert("scores", { player: args.player, points: args.points });
    const doc = await ctx.db.get("scores", id);
    await leaderboard.insert(ctx, doc!);
    return id;
  },
});

export const removeScore = mutation({
  args: { scoreId: v.id("scores") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const doc = await ctx.db.get("scores", args.scoreId);
    if (doc === null) {
      throw new ConvexError("Score not found");
    }
    await ctx.db.delete("scores", args.scoreId);
    await leaderboard.delete(ctx, doc);
    return null;
  },
});

export const stats = query({
  args: {},
  returns: v.object({ count: v.number(), total: v.number() }),
  handler: async (ctx) => {
    const count = await leaderboard.count(ctx);
    const total = await leaderboard.sum(ctx);
    return { count, total };
  },
});

export const rankOf = query({
  args: { scoreId: v.id("scores") },
  returns: v.number(),
  handler: async (ctx, args) => {
    const doc = await ctx.db.get("scores", args.scoreId);
    if (doc === null) {
      throw new ConvexError("Score not found");
    }
    return await leaderboard.indexOfDoc(ctx, doc);
  },
});
