import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  rates: defineTable({
    currency: v.string(),
    rate: v.number(),
    updatedAt: v.number(),
  }).index("by_currency", ["currency"]),
  syncFailures: defineTable({
    attempts: v.number(),
    reason: v.string(),
  }),
});
