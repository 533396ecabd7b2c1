import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  translations: defineTable({
    text: v.string(),
    target: v.union(v.literal("fr"), v.literal("de")),
    translation: v.string(),
  }).index("by_text_and_target", ["text", "target"]),
});
