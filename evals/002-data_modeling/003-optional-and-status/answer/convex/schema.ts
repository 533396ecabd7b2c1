import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  orders: defineTable({
    customer: v.string(),
    status: v.union(
      v.literal("pending"),
      v.literal("shipped"),
      v.literal("cancelled"),
    ),
    note: v.optional(v.string()),
    shippedAt: v.optional(v.number()),
  }).index("by_status", ["status"]),
});
