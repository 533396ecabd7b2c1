import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  teams: defineTable({
    name: v.string(),
  }),
  memberships: defineTable({
    teamId: v.id("teams"),
    userName: v.string(),
  })
    .index("by_user", ["userName"])
    .index("by_team", ["teamId"]),
  tasks: defineTable({
    teamId: v.id("teams"),
    title: v.string(),
    done: v.boolean(),
  }).index("by_team_and_done", ["teamId", "done"]),
});
