import { defineSchema, defineTable } from "convex/server";
import { v } from "convex/values";

export default defineSchema({
  articles: defineTable({
    title: v.string(),
    body: v.string(),
    category: v.string(),
  })
    .index("by_category", ["category"])
    .searchIndex("search_body", {
      searchField: "body",
      filterFields: ["category"],
    }),
});
