import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

const priority = v.union(v.literal("low"), v.literal("normal"), v.literal("high"));

export const add = mutation({
  args: {
    text: v.string(),
    priority: v.optional(priority),
  },
  returns: v.id("todos"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("todos", {
      text: args.text,
      done: false,
      priority: args.priority ?? "normal",
    });
  },
});

export const setDone = mutation({
  args: {
    todoId: v.id("todos"),
    done: v.optional(v.boolean()),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const todo = await ctx.db.get("todos", args.todoId);
    if (todo === null) {
      throw new ConvexError("Todo not found");
    }
    await ctx.db.patch("todos", todo._id, { done: args.done ?? true });
    return null;
  },
});

export const list = query({
  args: {
    includeDone: v.optional(v.boolean()),
    limit: v.optional(v.number()),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const limit = args.limit ?? 50;
    const todos = args.includeDone
      ? await ctx.db.query("todos").order("asc").take(limit)
      : await ctx.db
          .query("todos")
          .withIndex("by_done", (q) => q.eq("done", false))
          .order("asc")
          .take(limit);
    return todos.map((todo) => todo.text);
  },
});
