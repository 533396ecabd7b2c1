import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  events: defineTable({
    title: v.string(),
    startsAt: v.number(),
    endsAt: v.number(),
  }).index("by_startsAt", ["startsAt"]),
});
