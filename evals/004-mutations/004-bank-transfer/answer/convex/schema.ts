import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  accounts: defineTable({
    owner: v.string(),
    balance: v.number(),
  }),
  transfers: defineTable({
    from: v.id("accounts"),
    to: v.id("accounts"),
    amount: v.number(),
  }),
});
