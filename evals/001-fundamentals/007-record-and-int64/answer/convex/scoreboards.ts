import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const create = mutation({
  args: {
    name: v.string(),
  },
  returns: v.id("scoreboards"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("scoreboards", { name: args.name, scores: {}, plays: 0n });
  },
});

export const addScore = mutation({
  args: {
    boardId: v.id("scoreboards"),
    player: v.string(),
    points: v.number(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const board = await ctx.db.get("scoreboards", args.boardId);
    if (board === null) {
      throw new ConvexError("Scoreboard not found");
    }
    const scores = { ...board.scores };
    scores[args.player] = (scores[args.player] ?? 0) + args.points;
    await ctx.db.patch("scoreboards", board._id, { scores, plays: board.plays + 1n });
    return null;
  },
});

export const get = query({
  args: {
    boardId: v.id("scoreboards"),
  },
  returns: v.union(
    v.object({
      name: v.string(),
      scores: v.record(v.string(), v.number()),
      plays: v.int64(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const board = await ctx.db.get("scoreboards", args.boardId);
    if (board === null) {
      return null;
    }
    return { name: board.name, scores: board.scores, plays: board.plays };
  },
});

export const leader = query({
  args: {
    boardId: v.id("scoreboards"),
  },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, args) => {
    const board = await ctx.db.get("scoreboards", args.boardId);
    if (board === null) {
      return null;
    }
    let best: string | null = null;
    for (const [player, score] of Object.entries(board.scores)) {
      if (
        best === null ||
        score > board.scores[best] ||
        (score === board.scores[best] && player < best)
      ) {
        best = player;
      }
    }
    return best;
  },
});
