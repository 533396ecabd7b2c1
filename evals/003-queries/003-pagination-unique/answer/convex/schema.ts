import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  users: defineTable({
    email: v.string(),
    name: v.string(),
  }).index("by_email", ["email"]),
  posts: defineTable({
    authorId: v.id("users"),
    text: v.string(),
  }),
});
