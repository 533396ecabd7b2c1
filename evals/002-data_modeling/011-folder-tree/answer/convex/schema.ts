import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  folders: defineTable({
    name: v.string(),
    parentId: v.union(v.id("folders"), v.null()),
  }).index("by_parent", ["parentId"]),
});
