import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const createPost = mutation({
  args: {
    title: v.string(),
  },
  returns: v.id("posts"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("posts", {
      title: args.title,
      commentCount: 0,
      lastCommentAt: null,
    });
  },
});

export const addComment = mutation({
  args: {
    postId: v.id("posts"),
    text: v.string(),
  },
  returns: v.id("comments"),
  handler: async (ctx, args) => {
    const post = await ctx.db.get("posts", args.postId);
    if (post === null) {
      throw new ConvexError("Post not found");
    }
    const commentId = await ctx.db.insert("comments", { postId: args.postId, text: args.text });
    const comment = await ctx.db.get("comments", commentId);
    await ctx.db.patch("posts", post._id, {
      commentCount: post.commentCount + 1,
      lastCommentAt: comment!._creationTime,
    });
    return commentId;
  },
});

export const deleteComment = mutation({
  args: {
    commentId: v.id("comments"),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const comment = await ctx.db.get("comments", args.commentId);
    if (comment === null) {
      throw new ConvexError("Comment not found");
    }
    await ctx.db.delete("comments", comment._id);
    const post = await ctx.db.get("posts", comment.postId);
    if (post !== null) {
      await ctx.db.patch("posts", post._id, { commentCount: post.commentCount - 1 });
    }
    return null;
  },
});

export const getPost = query({
  args: {
    postId: v.id("posts"),
  },
  returns: v.union(
    v.object({
      title: v.string(),
      commentCount: v.number(),
      lastCommentAt: v.union(v.number(), v.null()),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const post = await ctx.db.get("posts", args.postId);
    if (post === null) {
      return null;
    }
    return {
      title: post.title,
      commentCount: post.commentCount,
      lastCommentAt: post.lastCommentAt,
    };
  },
});

export const listComments = query({
  args: {
    postId: v.id("posts"),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const comments = await ctx.db
      .query("comments")
      .withIndex("by_post", (q) => q.eq("postId", args.postId))
      .collect();
    return comments.map((c) => c.text);
  },
});
