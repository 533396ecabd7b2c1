import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  players: defineTable({
    handle: v.string(),
    score: v.number(),
  })
    .index("by_handle", ["handle"])
    .index("by_score", ["score"]),
});
