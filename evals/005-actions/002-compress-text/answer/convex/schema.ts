import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  archives: defineTable({
    compressed: v.string(),
    originalLength: v.number(),
  }),
});
