import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export const lineItem = v.object({
  sku: v.string(),
  quantity: v.number(),
  unitPrice: v.number(),
});

export default defineSchema({
  orders: defineTable({
    customer: v.string(),
    items: v.array(lineItem),
    total: v.number(),
  }),
});
