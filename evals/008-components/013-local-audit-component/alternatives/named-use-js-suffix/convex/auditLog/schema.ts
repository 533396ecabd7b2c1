import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  events: defineTable({
    subject: v.string(),
    action: v.string(),
    at: v.number(),
  }).index("by_subject_and_at", ["subject", "at"]),
});
