import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const list = query({
  args: {},
  returns: v.array(v.object({ _id: v.id("todos"), text: v.string(), done: v.boolean() })),
  handler: async (ctx) => {
    const todos = await ctx.db.query("todos").order("asc").collect();
    return todos.map((t) => ({ _id: t._id, text: t.text, done: t.done }));
  },
});

export const add = mutation({
  args: { text: v.string() },
  returns: v.id("todos"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("todos", { text: args.text, done: false });
  },
});

export const toggle = mutation({
  args: { id: v.id("todos") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const todo = await ctx.db.get("todos", args.id);
    if (todo === null) {
      throw new Error("Todo not found");
    }
    await ctx.db.patch("todos", args.id, { done: !todo.done });
    return null;
  },
});
