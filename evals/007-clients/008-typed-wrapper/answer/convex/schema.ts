import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  notes: defineTable({
    title: v.string(),
    body: v.string(),
    pinned: v.boolean(),
  }).index("by_pinned", ["pinned"]),
});
