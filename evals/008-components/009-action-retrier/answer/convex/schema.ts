import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  jobs: defineTable({
    name: v.string(),
    failuresBeforeSuccess: v.number(),
    attempts: v.number(),
    status: v.union(v.literal("running"), v.literal("succeeded"), v.literal("failed")),
    result: v.optional(v.string()),
    runId: v.optional(v.string()),
  }).index("by_runId", ["runId"]),
});
