import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export const circle = v.object({
  kind: v.literal("circle"),
  label: v.string(),
  radius: v.number(),
});

export const rectangle = v.object({
  kind: v.literal("rectangle"),
  label: v.string(),
  width: v.number(),
  height: v.number(),
});

export default defineSchema({
  shapes: defineTable(v.union(circle, rectangle)).index("by_kind", ["kind"]),
});
