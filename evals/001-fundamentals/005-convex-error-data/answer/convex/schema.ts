import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  accounts: defineTable({
    owner: v.string(),
    balance: v.number(),
  }).index("by_owner", ["owner"]),
});
