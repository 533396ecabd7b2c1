import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  summaries: defineTable({
    words: v.number(),
    chars: v.number(),
  }),
});
