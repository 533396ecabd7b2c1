import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const create = mutation({
  args: {
    assignee: v.string(),
    title: v.string(),
    priority: v.number(),
    dueAt: v.number(),
  },
  returns: v.id("tasks"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("tasks", {
      assignee: args.assignee,
      title: args.title,
      done: false,
      priority: args.priority,
      dueAt: args.dueAt,
    });
  },
});

export const complete = mutation({
  args: {
    taskId: v.id("tasks"),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const task = await ctx.db.get("tasks", args.taskId);
    if (task === null) {
      throw new ConvexError("Task not found");
    }
    await ctx.db.patch("tasks", args.taskId, { done: true });
    return null;
  },
});

export const overdue = query({
  args: {
    assignee: v.string(),
    now: v.number(),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const tasks = await ctx.db
      .query("tasks")
      .withIndex("by_assignee_and_due", (q) => q.eq("assignee", args.assignee).lt("dueAt", args.now))
      .collect();
    return tasks.filter((task) => !task.done).map((task) => task.title);
  },
});

export const nextUp = query({
  args: {
    assignee: v.string(),
    now: v.number(),
    minPriority: v.number(),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const titles: string[] = [];
    const upcoming = ctx.db
      .query("tasks")
      .withIndex("by_assignee_and_due", (q) => q.eq("assignee", args.assignee).gt("dueAt", args.now));
    for await (const task of upcoming) {
      if (!task.done && task.priority >= args.minPriority) {
        titles.push(task.title);
        if (titles.length === 3) {
          break;
        }
      }
    }
    return titles;
  },
});
