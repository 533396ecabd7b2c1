import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  tickets: defineTable({
    title: v.string(),
    status: v.union(v.literal("open"), v.literal("in_progress"), v.literal("closed")),
    assignee: v.optional(v.string()),
    closedAt: v.optional(v.number()),
  }),
});
