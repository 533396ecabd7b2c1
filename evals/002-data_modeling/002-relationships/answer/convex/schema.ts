import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  authors: defineTable({
    name: v.string(),
  }),
  books: defineTable({
    title: v.string(),
    authorId: v.id("authors"),
  }).index("by_author", ["authorId"]),
});
