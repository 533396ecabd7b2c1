import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  mirrors: defineTable({
    sourceUrl: v.string(),
    storageId: v.id("_storage"),
    sha256: v.string(),
    size: v.number(),
  }).index("by_sha256", ["sha256"]),
});
