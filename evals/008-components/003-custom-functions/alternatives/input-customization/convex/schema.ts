import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  users: defineTable({
    tokenIdentifier: v.string(),
    name: v.string(),
  }).index("by_token", ["tokenIdentifier"]),
  notes: defineTable({
    userId: v.id("users"),
    text: v.string(),
  }).index("by_user", ["userId"]),
});
