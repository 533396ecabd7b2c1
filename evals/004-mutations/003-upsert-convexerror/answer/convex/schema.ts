import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  settings: defineTable({
    userId: v.string(),
    key: v.string(),
    value: v.string(),
  }).index("by_user_and_key", ["userId", "key"]),
});
