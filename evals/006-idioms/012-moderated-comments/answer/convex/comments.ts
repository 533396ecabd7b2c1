import { ConvexError, v } from "convex/values";
import { internalMutation, mutation, query } from "./_generated/server";
import type { QueryCtx } from "./_generated/server";
import { internal } from "./_generated/api";

async function requireIdentity(ctx: QueryCtx) {
  const identity = await ctx.auth.getUserIdentity();
  if (identity === null) {
    throw new ConvexError({ code: "UNAUTHENTICATED", message: "You must be signed in" });
  }
  return identity;
}

export const post = mutation({
  args: { postId: v.string(), body: v.string() },
  returns: v.id("comments"),
  handler: async (ctx, args) => {
    const identity = await requireIdentity(ctx);
    const body = args.body.trim();
    if (body.length === 0 || body.length > 280) {
      throw new ConvexError({ code: "INVALID_ARGUMENT", message: "A comment has 1 to 280 characters" });
    }
    const commentId = await ctx.db.insert("comments", {
      postId: args.postId,
      authorToken: identity.tokenIdentifier,
      authorName: identity.name ?? "anonymous",
      body,
      status: "pending",
    });
    await ctx.scheduler.runAfter(0, internal.comments.moderate, { commentId });
    return commentId;
  },
});

export const moderate = internalMutation({
  args: { commentId: v.id("comments") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const comment = await ctx.db.get("comments", args.commentId);
    if (comment === null || comment.status !== "pending") {
      return null;
    }
    const status = comment.body.toLowerCase().includes("spam") ? "rejected" : "approved";
    await ctx.db.patch("comments", args.commentId, { status });
    return null;
  },
});

export const listApproved = query({
  args: { postId: v.string() },
  returns: v.array(
    v.object({ _id: v.id("comments"), authorName: v.string(), body: v.string() }),
  ),
  handler: async (ctx, args) => {
    const comments = await ctx.db
      .query("comments")
      .withIndex("by_post_and_status", (q) => q.eq("postId", args.postId).eq("status", "approved"))
      .collect();
    return comments.map((c) => ({ _id: c._id, authorName: c.authorName, body: c.body }));
  },
});

export const remove = mutation({
  args: { commentId: v.id("comments") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const identity = await requireIdentity(ctx);
    const comment = await ctx.db.get("comments", args.commentId);
    if (comment === null) {
      throw new ConvexError({ code: "NOT_FOUND", message: "Comment not found" });
    }
    if (comment.authorToken !== identity.tokenIdentifier) {
      throw new ConvexError({ code: "FORBIDDEN", message: "Not your comment" });
    }
    await ctx.db.delete("comments", args.commentId);
    return null;
  },
});
