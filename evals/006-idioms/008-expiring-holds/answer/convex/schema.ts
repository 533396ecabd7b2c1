import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  holds: defineTable({
    seat: v.string(),
    holder: v.string(),
    expiresAt: v.number(),
    status: v.union(v.literal("active"), v.literal("released"), v.literal("confirmed")),
  }).index("by_seat", ["seat"]),
});
