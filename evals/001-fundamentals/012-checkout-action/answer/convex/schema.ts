import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  inventory: defineTable({
    sku: v.string(),
    stock: v.number(),
  }).index("by_sku", ["sku"]),
  reservations: defineTable({
    inventoryId: v.id("inventory"),
    quantity: v.number(),
  }),
});
