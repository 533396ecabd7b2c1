import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

const status = v.union(v.literal("todo"), v.literal("doing"), v.literal("done"));

export const add = mutation({
  args: {
    project: v.string(),
    status: status,
    priority: v.number(),
    title: v.string(),
  },
  returns: v.id("tasks"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("tasks", {
      project: args.project,
      status: args.status,
      priority: args.priority,
      title: args.title,
    });
  },
});

export const listByProjectAndStatus = query({
  args: {
    project: v.string(),
    status: status,
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const tasks = await ctx.db
      .query("tasks")
      .withIndex("by_project_status_priority", (q) =>
        q.eq("project", args.project).eq("status", args.status),
      )
      .collect();
    return tasks.map((task) => task.title);
  },
});

export const countByProject = query({
  args: {
    project: v.string(),
  },
  returns: v.number(),
  handler: async (ctx, args) => {
    const tasks = await ctx.db
      .query("tasks")
      .withIndex("by_project_status_priority", (q) => q.eq("project", args.project))
      .collect();
    return tasks.length;
  },
});
