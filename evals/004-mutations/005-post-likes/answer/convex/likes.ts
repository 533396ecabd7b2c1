import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const createPost = mutation({
  args: {
    title: v.string(),
  },
  returns: v.id("posts"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("posts", { title: args.title });
  },
});

export const like = mutation({
  args: {
    postId: v.id("posts"),
    userId: v.string(),
  },
  returns: v.boolean(),
  handler: async (ctx, args) => {
    const post = await ctx.db.get("posts", args.postId);
    if (post === null) {
      throw new ConvexError("Post not found");
    }
    const existing = await ctx.db
      .query("likes")
      .withIndex("by_post_and_user", (q) => q.eq("postId", args.postId).eq("userId", args.userId))
      .unique();
    if (existing !== null) {
      return false;
    }
    await ctx.db.insert("likes", { postId: args.postId, userId: args.userId });
    return true;
  },
});

export const unlike = mutation({
  args: {
    postId: v.id("posts"),
    userId: v.string(),
  },
  returns: v.boolean(),
  handler: async (ctx, args) => {
    const like = await ctx.db
      .query("likes")
      .withIndex("by_post_and_user", (q) => q.eq("postId", args.postId).eq("userId", args.userId))
      .unique();
    if (like === null) {
      return false;
    }
    await ctx.db.delete("likes", like._id);
    return true;
  },
});

export const likeCount = query({
  args: {
    postId: v.id("posts"),
  },
  returns: v.number(),
  handler: async (ctx, args) => {
    const likes = await ctx.db
      .query("likes")
      .withIndex("by_post_and_user", (q) => q.eq("postId", args.postId))
      .collect();
    return likes.length;
  },
});

export const likedBy = query({
  args: {
    postId: v.id("posts"),
    userId: v.string(),
  },
  returns: v.boolean(),
  handler: async (ctx, args) => {
    const like = await ctx.db
      .query("likes")
      .withIndex("by_post_and_user", (q) => q.eq("postId", args.postId).eq("userId", args.userId))
      .unique();
    return like !== null;
  },
});
