import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  users: defineTable({
    name: v.string(),
  }),
  events: defineTable({
    userId: v.id("users"),
    kind: v.union(v.literal("click"), v.literal("view"), v.literal("purchase")),
    amount: v.optional(v.number()),
    tags: v.array(v.string()),
  }),
});
