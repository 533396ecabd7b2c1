import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  payments: defineTable({
    externalId: v.string(),
    amountCents: v.number(),
    status: v.union(v.literal("paid"), v.literal("refunded")),
  }).index("by_externalId", ["externalId"]),
});
