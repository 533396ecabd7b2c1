import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  sessions: defineTable({
    userId: v.string(),
    expiresAt: v.number(),
  }).index("by_expiresAt", ["expiresAt"]),
  sessionCounts: defineTable({
    count: v.number(),
    takenAt: v.number(),
  }),
});
