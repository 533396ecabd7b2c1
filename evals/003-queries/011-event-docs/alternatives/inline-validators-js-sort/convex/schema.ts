import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  events: defineTable({
    title: v.string(),
    startsAt: v.number(),
    kind: v.union(v.literal("talk"), v.literal("workshop")),
    room: v.optional(v.string()),
  }).index("by_start", ["startsAt"]),
});
