import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  authors: defineTable({
    name: v.string(),
  }),
  books: defineTable({
    authorId: v.id("authors"),
    title: v.string(),
  }).index("by_author", ["authorId"]),
  reviews: defineTable({
    bookId: v.id("books"),
    stars: v.number(),
  }).index("by_book", ["bookId"]),
});
