import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  forecasts: defineTable({
    city: v.string(),
    temperatureC: v.number(),
    fetchedAt: v.number(),
  }).index("by_city", ["city"]),
});
