import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  hashes: defineTable({
    text: v.string(),
    hash: v.string(),
  }).index("by_hash", ["hash"]),
});
