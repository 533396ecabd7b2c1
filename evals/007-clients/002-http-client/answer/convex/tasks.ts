import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const add = mutation({
  args: { text: v.string() },
  returns: v.id("tasks"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("tasks", { text: args.text, done: false });
  },
});

export const complete = mutation({
  args: { id: v.id("tasks") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const task = await ctx.db.get("tasks", args.id);
    if (task === null) {
      throw new Error("Task not found");
    }
    await ctx.db.patch("tasks", args.id, { done: true });
    return null;
  },
});

export const listOpen = query({
  args: {},
  returns: v.array(v.object({ _id: v.id("tasks"), text: v.string() })),
  handler: async (ctx) => {
    const tasks = await ctx.db
      .query("tasks")
      .withIndex("by_done", (q) => q.eq("done", false))
      .order("asc")
      .collect();
    return tasks.map((t) => ({ _id: t._id, text: t.text }));
  },
});
