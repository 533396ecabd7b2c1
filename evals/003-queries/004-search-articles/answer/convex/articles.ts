import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

export const create = mutation({
  args: {
    title: v.string(),
    body: v.string(),
    category: v.string(),
    published: v.boolean(),
  },
  returns: v.id("articles"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("articles", {
      title: args.title,
      body: args.body,
      category: args.category,
      published: args.published,
    });
  },
});

export const search = query({
  args: {
    query: v.string(),
    category: v.optional(v.string()),
  },
  returns: v.array(
    v.object({
      _id: v.id("articles"),
      _creationTime: v.number(),
      title: v.string(),
      body: v.string(),
      category: v.string(),
      published: v.boolean(),
    }),
  ),
  handler: async (ctx, args) => {
    const category = args.category;
    return await ctx.db
      .query("articles")
      .withSearchIndex("search_body", (q) => {
        const published = q.search("body", args.query).eq("published", true);
        return category === undefined ? published : published.eq("category", category);
      })
      .take(10);
  },
});
