import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  events: defineTable({
    name: v.string(),
    capacity: v.number(),
  }),
  reservations: defineTable({
    eventId: v.id("events"),
    userId: v.string(),
  }).index("by_event_and_user", ["eventId", "userId"]),
});
