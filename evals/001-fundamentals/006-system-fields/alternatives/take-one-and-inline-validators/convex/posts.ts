import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

export const create = mutation({
  args: { title: v.string() },
  returns: v.id("posts"),
  handler: async (ctx, { title }) => ctx.db.insert("posts", { title }),
});

export const get = query({
  args: { postId: v.id("posts") },
  returns: v.union(
    v.object({ _id: v.id("posts"), _creationTime: v.number(), title: v.string() }),
    v.null(),
  ),
  handler: async (ctx, { postId }) => ctx.db.get("posts", postId),
});

export const createdSince = query({
  args: { since: v.number() },
  returns: v.array(
    v.object({ _id: v.id("posts"), _creationTime: v.number(), title: v.string() }),
  ),
  handler: async (ctx, { since }) =>
    ctx.db
      .query("posts")
      .withIndex("by_creation_time", (q) => q.gte("_creationTime", since))
      .collect(),
});

export const newestTitle = query({
  args: {},
  returns: v.union(v.string(), v.null()),
  handler: async (ctx) => {
    const [newest] = await ctx.db
      .query("posts")
      .withIndex("by_creation_time")
      .order("desc")
      .take(1);
    return newest?.title ?? null;
  },
});
