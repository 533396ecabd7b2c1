import { mutation, query } from "./_generated/server";
import { v } from "convex/values";
import { bumpCommentCount } from "./model/posts";

export const createPost = mutation({
  args: { title: v.string() },
  returns: v.id("posts"),
  handler: async (ctx, { title }) =>
    await ctx.db.insert("posts", { title, commentCount: 0, lastCommentAt: null }),
});

export const addComment = mutation({
  args: { postId: v.id("posts"), text: v.string() },
  returns: v.id("comments"),
  handler: async (ctx, { postId, text }) => {
    if ((await ctx.db.get("posts", postId)) === null) {
      throw new Error("no such post");
    }
    const commentId = await ctx.db.insert("comments", { postId, text });
    const comment = await ctx.db.get("comments", commentId);
    await bumpCommentCount(ctx, postId, 1, comment?._creationTime);
    return commentId;
  },
});

export const deleteComment = mutation({
  args: { commentId: v.id("comments") },
  returns: v.null(),
  handler: async (ctx, { commentId }) => {
    const comment = await ctx.db.get("comments", commentId);
    if (comment === null) {
      throw new Error("no such comment");
    }
    await ctx.db.delete("comments", commentId);
    await bumpCommentCount(ctx, comment.postId, -1);
    return null;
  },
});

export const getPost = query({
  args: { postId: v.id("posts") },
  returns: v.union(
    v.object({
      title: v.string(),
      commentCount: v.number(),
      lastCommentAt: v.union(v.number(), v.null()),
    }),
    v.null(),
  ),
  handler: async (ctx, { postId }) => {
    const post = await ctx.db.get("posts", postId);
    return post && {
      title: post.title,
      commentCount: post.commentCount,
      lastCommentAt: post.lastCommentAt,
    };
  },
});

export const listComments = query({
  args: { postId: v.id("posts") },
  returns: v.array(v.string()),
  handler: async (ctx, { postId }) =>
    (
      await ctx.db
        .query("comments")
        .withIndex("by_post", (q) => q.eq("postId", postId))
        .collect()
    ).map((c) => c.text),
});
