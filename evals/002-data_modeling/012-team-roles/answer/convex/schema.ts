import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  users: defineTable({
    name: v.string(),
  }),
  teams: defineTable({
    name: v.string(),
  }),
  memberships: defineTable({
    teamId: v.id("teams"),
    userId: v.id("users"),
    role: v.union(v.literal("owner"), v.literal("admin"), v.literal("member")),
  })
    .index("by_team_and_role", ["teamId", "role"])
    .index("by_user_and_team", ["userId", "teamId"]),
});
