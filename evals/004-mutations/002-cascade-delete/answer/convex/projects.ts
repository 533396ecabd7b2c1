import { internalMutation, mutation } from "./_generated/server";
import { internal } from "./_generated/api";
import { ConvexError, v } from "convex/values";

export const createProject = mutation({
  args: {
    name: v.string(),
  },
  returns: v.id("projects"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("projects", { name: args.name });
  },
});

export const addTask = mutation({
  args: {
    projectId: v.id("projects"),
    title: v.string(),
  },
  returns: v.id("tasks"),
  handler: async (ctx, args) => {
    const project = await ctx.db.get("projects", args.projectId);
    if (project === null) {
      throw new ConvexError("Project not found");
    }
    return await ctx.db.insert("tasks", {
      projectId: args.projectId,
      title: args.title,
    });
  },
});

export const deleteProjectTasks = internalMutation({
  args: {
    projectId: v.id("projects"),
  },
  returns: v.number(),
  handler: async (ctx, args) => {
    const tasks = await ctx.db
      .query("tasks")
      .withIndex("by_project", (q) => q.eq("projectId", args.projectId))
      .collect();
    for (const task of tasks) {
      await ctx.db.delete("tasks", task._id);
    }
    return tasks.length;
  },
});

export const deleteProject = mutation({
  args: {
    projectId: v.id("projects"),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const project = await ctx.db.get("projects", args.projectId);
    if (project === null) {
      throw new ConvexError("Project not found");
    }
    await ctx.db.delete("projects", args.projectId);
    await ctx.scheduler.runAfter(0, internal.projects.deleteProjectTasks, {
      projectId: args.projectId,
    });
    return null;
  },
});
