import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

export const publish = mutation({
  args: {
    title: v.string(),
    body: v.string(),
    category: v.string(),
  },
  returns: v.id("articles"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("articles", {
      title: args.title,
      body: args.body,
      category: args.category,
    });
  },
});

export const search = query({
  args: {
    text: v.string(),
    category: v.optional(v.string()),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const category = args.category;
    const results = await ctx.db
      .query("articles")
      .withSearchIndex("search_body", (q) =>
        category === undefined
          ? q.search("body", args.text)
          : q.search("body", args.text).eq("category", category),
      )
      .take(10);
    return results.map((article) => article.title);
  },
});

export const countInCategory = query({
  args: {
    category: v.string(),
  },
  returns: v.number(),
  handler: async (ctx, args) => {
    const rows = await ctx.db
      .query("articles")
      .withIndex("by_category", (q) => q.eq("category", args.category))
      .collect();
    return rows.length;
  },
});
