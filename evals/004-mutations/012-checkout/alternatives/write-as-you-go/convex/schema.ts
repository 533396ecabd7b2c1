import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  products: defineTable({
    sku: v.string(),
    name: v.string(),
    price: v.number(),
    stock: v.number(),
  }).index("by_sku", ["sku"]),
  orders: defineTable({
    items: v.array(v.object({ sku: v.string(), quantity: v.number() })),
    total: v.number(),
  }),
});
