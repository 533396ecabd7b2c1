import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  contacts: defineTable({
    email: v.string(),
    name: v.string(),
  }).index("by_email", ["email"]),
});
