import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  posts: defineTable({
    title: v.string(),
  }),
  likes: defineTable({
    postId: v.id("posts"),
    userId: v.string(),
  }).index("by_post_and_user", ["postId", "userId"]),
});
