import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  scores: defineTable({
    player: v.string(),
    points: v.number(),
    recordedAt: v.number(),
  })
    .index("by_points", ["points"])
    .index("by_recordedAt", ["recordedAt"]),
});
