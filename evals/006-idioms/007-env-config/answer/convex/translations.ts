import { v } from "convex/values";
import { internalMutation, query } from "./_generated/server";

const target = v.union(v.literal("fr"), v.literal("de"));

export const save = internalMutation({
  args: { text: v.string(), target, translation: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.insert("translations", {
      text: args.text,
      target: args.target,
      translation: args.translation,
    });
    return null;
  },
});

export const getSaved = query({
  args: { text: v.string(), target },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("translations")
      .withIndex("by_text_and_target", (q) => q.eq("text", args.text).eq("target", args.target))
      .order("desc")
      .first();
    return row === null ? null : row.translation;
  },
});

export const appInfo = query({
  args: {},
  returns: v.object({ appName: v.string() }),
  handler: async () => {
    return { appName: process.env.APP_NAME || "Untitled" };
  },
});
