import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  scoreboards: defineTable({
    name: v.string(),
    scores: v.record(v.string(), v.number()),
    plays: v.int64(),
  }),
});
