import { ConvexError, v } from "convex/values";
import { action, internalMutation, query } from "./_generated/server";
import { internal } from "./_generated/api";

const stats = v.object({ words: v.number(), chars: v.number() });

export const summarize = action({
  args: { text: v.string() },
  returns: stats,
  handler: async (ctx, args) => {
    const trimmed = args.text.trim();
    if (trimmed === "") {
      throw new ConvexError({ code: "EMPTY_TEXT" });
    }
    const words = trimmed.split(/\s+/).length;
    const chars = args.text.length;
    await ctx.runMutation(internal.summaries.record, { words, chars });
    return { words, chars };
  },
});

export const record = internalMutation({
  args: { words: v.number(), chars: v.number() },
  returns: v.id("summaries"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("summaries", { words: args.words, chars: args.chars });
  },
});

export const recent = query({
  args: {},
  returns: v.array(stats),
  handler: async (ctx) => {
    const rows = await ctx.db.query("summaries").order("desc").take(3);
    return rows.map((r) => ({ words: r.words, chars: r.chars }));
  },
});
