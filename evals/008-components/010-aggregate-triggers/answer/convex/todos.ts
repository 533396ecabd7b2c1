import { ConvexError, v } from "convex/values";
import { query } from "./_generated/server";
import { mutation, todoStats } from "./functions";

export const createList = mutation({
  args: { name: v.string() },
  returns: v.id("lists"),
  handler: async (ctx, args) => await ctx.db.insert("lists", { name: args.name }),
});

export const addTodo = mutation({
  args: { listId: v.id("lists"), text: v.string() },
  returns: v.id("todos"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("todos", { listId: args.listId, text: args.text, done: false });
  },
});

export const setDone = mutation({
  args: { todoId: v.id("todos"), done: v.boolean() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const todo = await ctx.db.get("todos", args.todoId);
    if (todo === null) {
      throw new ConvexError("Todo not found");
    }
    await ctx.db.patch("todos", args.todoId, { done: args.done });
    return null;
  },
});

export const deleteTodo = mutation({
  args: { todoId: v.id("todos") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const todo = await ctx.db.get("todos", args.todoId);
    if (todo === null) {
      throw new ConvexError("Todo not found");
    }
    await ctx.db.delete("todos", args.todoId);
    return null;
  },
});

export const listStats = query({
  args: { listId: v.id("lists") },
  returns: v.object({ total: v.number(), done: v.number() }),
  handler: async (ctx, args) => {
    const total = await todoStats.count(ctx, { namespace: args.listId });
    const done = await todoStats.count(ctx, {
      namespace: args.listId,
      bounds: { lower: { key: true, inclusive: true } },
    });
    return { total, done };
  },
});
