import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  orders: defineTable({
    item: v.string(),
    status: v.union(v.literal("pending"), v.literal("confirmed"), v.literal("expired")),
    expiryJob: v.optional(v.id("_scheduled_functions")),
  }),
});
