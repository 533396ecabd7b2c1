import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  products: defineTable({
    name: v.string(),
    priceCents: v.number(),
    category: v.union(v.literal("book"), v.literal("game"), v.literal("music")),
    tags: v.array(v.string()),
    discountPercent: v.optional(v.number()),
  }).index("by_category", ["category"]),
});
