import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  products: defineTable({
    sku: v.string(),
    name: v.string(),
    price: v.number(),
  }).index("by_sku", ["sku"]),
});
