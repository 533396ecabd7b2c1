import { v } from "convex/values";
import { mutation, query } from "./_generated/server";
import { scoresByPoints } from "./aggregates";

export const addScore = mutation({
  args: { player: v.string(), points: v.number() },
  returns: v.id("scores"),
  handler: async (ctx, { player, points }) => {
    const id = await ctx.db.insert("scores", { player, points });
    const doc = await ctx.db.get("scores", id);
    if (doc) {
      await scoresByPoints.insertIfDoesNotExist(ctx, doc);
    }
    return id;
  },
});

export const removeScore = mutation({
  args: { scoreId: v.id("scores") },
  returns: v.null(),
  handler: async (ctx, { scoreId }) => {
    const doc = await ctx.db.get("scores", scoreId);
    if (!doc) throw new Error(`no score ${scoreId}`);
    await scoresByPoints.delete(ctx, doc);
    await ctx.db.delete("scores", scoreId);
    return null;
  },
});

export const stats = query({
  args: {},
  returns: v.object({ count: v.number(), total: v.number() }),
  handler: async (ctx) => ({
    count: await scoresByPoints.count(ctx),
    total: await scoresByPoints.sum(ctx),
  }),
});

export const rankOf = query({
  args: { scoreId: v.id("scores") },
  returns: v.number(),
  handler: async (ctx, { scoreId }) => {
    const doc = await ctx.db.get("scores", scoreId);
    if (!doc) throw new Error(`no score ${scoreId}`);
    return await scoresByPoints.indexOfDoc(ctx, doc, { order: "desc" });
  },
});
