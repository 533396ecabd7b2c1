import { action, internalQuery, mutation } from "./_generated/server";
import { internal } from "./_generated/api";
import { ConvexError, v } from "convex/values";

export const add = mutation({
  args: {
    text: v.string(),
    tag: v.string(),
    embedding: v.array(v.float64()),
  },
  returns: v.id("snippets"),
  handler: async (ctx, args) => {
    if (args.embedding.length !== 3) {
      throw new ConvexError("Embeddings have 3 dimensions");
    }
    return await ctx.db.insert("snippets", {
      text: args.text,
      tag: args.tag,
      embedding: args.embedding,
    });
  },
});

export const getTexts = internalQuery({
  args: {
    ids: v.array(v.id("snippets")),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const docs = await Promise.all(args.ids.map((id) => ctx.db.get("snippets", id)));
    return docs.flatMap((doc) => (doc === null ? [] : [doc.text]));
  },
});

export const similar = action({
  args: {
    embedding: v.array(v.float64()),
    tag: v.string(),
    limit: v.number(),
  },
  returns: v.array(v.object({ text: v.string(), score: v.number() })),
  handler: async (ctx, args): Promise<{ text: string; score: number }[]> => {
    const results = await ctx.vectorSearch("snippets", "by_embedding", {
      vector: args.embedding,
      limit: args.limit,
      filter: (q) => q.eq("tag", args.tag),
    });
    const texts = await ctx.runQuery(internal.snippets.getTexts, {
      ids: results.map((r) => r._id),
    });
    return results.map((r, i) => ({ text: texts[i], score: r._score }));
  },
});
