import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  authors: defineTable({
    name: v.string(),
  }),
  posts: defineTable({
    authorId: v.id("authors"),
    title: v.string(),
  }).index("by_author", ["authorId"]),
});
