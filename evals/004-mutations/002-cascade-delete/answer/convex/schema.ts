import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  projects: defineTable({
    name: v.string(),
  }),
  tasks: defineTable({
    projectId: v.id("projects"),
    title: v.string(),
  }).index("by_project", ["projectId"]),
});
