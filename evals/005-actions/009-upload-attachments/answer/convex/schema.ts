import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  attachments: defineTable({
    name: v.string(),
    storageId: v.id("_storage"),
  }),
});
