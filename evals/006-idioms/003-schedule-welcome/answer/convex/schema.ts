import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  users: defineTable({
    name: v.string(),
    email: v.string(),
  }),
  outbox: defineTable({
    to: v.string(),
    subject: v.string(),
    userId: v.id("users"),
  }),
});
