import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  messages: defineTable({
    channelId: v.string(),
    author: v.string(),
    body: v.string(),
  }).index("by_channel", ["channelId"]),
});
