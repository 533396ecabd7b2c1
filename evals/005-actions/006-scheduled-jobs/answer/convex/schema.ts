import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  jobs: defineTable({
    input: v.string(),
    status: v.union(v.literal("pending"), v.literal("done")),
    result: v.optional(v.string()),
  }),
});
