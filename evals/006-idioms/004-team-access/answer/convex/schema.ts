import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  teams: defineTable({
    name: v.string(),
  }),
  memberships: defineTable({
    teamId: v.id("teams"),
    userToken: v.string(),
    role: v.union(v.literal("owner"), v.literal("member")),
  })
    .index("by_team_and_user", ["teamId", "userToken"])
    .index("by_user", ["userToken"]),
  notes: defineTable({
    teamId: v.id("teams"),
    text: v.string(),
    authorToken: v.string(),
  }).index("by_team", ["teamId"]),
});
