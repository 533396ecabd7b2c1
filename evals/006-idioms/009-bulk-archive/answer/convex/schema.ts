import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  messages: defineTable({
    channel: v.string(),
    text: v.string(),
    archived: v.boolean(),
  }).index("by_channel_and_archived", ["channel", "archived"]),
  notices: defineTable({
    text: v.string(),
  }),
});
