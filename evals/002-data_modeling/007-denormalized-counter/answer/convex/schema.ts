import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  posts: defineTable({
    title: v.string(),
    commentCount: v.number(),
    lastCommentAt: v.union(v.number(), v.null()),
  }),
  comments: defineTable({
    postId: v.id("posts"),
    text: v.string(),
  }).index("by_post", ["postId"]),
});
