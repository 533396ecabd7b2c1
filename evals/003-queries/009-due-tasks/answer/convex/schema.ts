import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  tasks: defineTable({
    assignee: v.string(),
    title: v.string(),
    done: v.boolean(),
    priority: v.number(),
    dueAt: v.number(),
  }).index("by_assignee_and_due", ["assignee", "dueAt"]),
});
