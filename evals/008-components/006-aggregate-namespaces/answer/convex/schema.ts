import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  purchases: defineTable({
    customer: v.string(),
    amount: v.number(),
  }),
});
