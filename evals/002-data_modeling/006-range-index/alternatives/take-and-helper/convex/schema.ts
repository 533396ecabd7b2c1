import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  readings: defineTable({
    sensor: v.string(),
    takenAt: v.number(),
    value: v.number(),
  }).index("by_sensor_and_time", ["sensor", "takenAt"]),
});
