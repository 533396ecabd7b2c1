import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

const postDoc = v.object({
  _id: v.id("posts"),
  _creationTime: v.number(),
  title: v.string(),
});

export const create = mutation({
  args: {
    title: v.string(),
  },
  returns: v.id("posts"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("posts", { title: args.title });
  },
});

export const get = query({
  args: {
    postId: v.id("posts"),
  },
  returns: v.union(postDoc, v.null()),
  handler: async (ctx, args) => {
    return await ctx.db.get("posts", args.postId);
  },
});

export const createdSince = query({
  args: {
    since: v.number(),
  },
  returns: v.array(postDoc),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("posts")
      .withIndex("by_creation_time", (q) => q.gte("_creationTime", args.since))
      .order("asc")
      .collect();
  },
});

export const newestTitle = query({
  args: {},
  returns: v.union(v.string(), v.null()),
  handler: async (ctx) => {
    const newest = await ctx.db.query("posts").order("desc").first();
    return newest === null ? null : newest.title;
  },
});
