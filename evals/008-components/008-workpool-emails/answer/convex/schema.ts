import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  emails: defineTable({
    to: v.string(),
    status: v.union(v.literal("queued"), v.literal("sent"), v.literal("failed")),
  }),
});
