import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  posts: defineTable({
    author: v.string(),
    text: v.string(),
  }).index("by_author", ["author"]),
});
