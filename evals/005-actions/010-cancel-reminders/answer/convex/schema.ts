import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  reminders: defineTable({
    text: v.string(),
    remindAt: v.number(),
    status: v.union(v.literal("scheduled"), v.literal("sent"), v.literal("canceled")),
    jobId: v.optional(v.id("_scheduled_functions")),
  }),
});
