import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  contacts: defineTable({
    name: v.string(),
    nickname: v.optional(v.string()),
    archivedAt: v.union(v.number(), v.null()),
  }).index("by_archived", ["archivedAt"]),
});
