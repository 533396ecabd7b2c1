import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  authors: defineTable({ name: v.string() }),
  books: defineTable({
    title: v.string(),
    authorId: v.id("authors"),
  }).index("by_authorId", ["authorId"]),
  tags: defineTable({ name: v.string() }),
  bookTags: defineTable({
    bookId: v.id("books"),
    tagId: v.id("tags"),
  }).index("by_bookId", ["bookId"]),
});
