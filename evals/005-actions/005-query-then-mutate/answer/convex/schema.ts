import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  items: defineTable({
    sku: v.string(),
    quantity: v.number(),
  }).index("by_sku", ["sku"]),
});
