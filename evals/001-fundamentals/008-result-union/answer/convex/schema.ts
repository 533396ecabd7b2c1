import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  coupons: defineTable({
    code: v.string(),
    percentOff: v.number(),
    remaining: v.number(),
  }).index("by_code", ["code"]),
});
