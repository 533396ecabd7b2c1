import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  tasks: defineTable({
    project: v.string(),
    status: v.union(v.literal("todo"), v.literal("doing"), v.literal("done")),
    priority: v.number(),
    title: v.string(),
  }).index("by_project_status_priority", ["project", "status", "priority"]),
});
