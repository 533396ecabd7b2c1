import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  expenses: defineTable({
    userId: v.string(),
    category: v.string(),
    amount: v.number(),
    date: v.number(),
  }).index("by_user_and_date", ["userId", "date"]),
});
