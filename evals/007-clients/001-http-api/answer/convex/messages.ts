import { v } from "convex/values";
import { internalMutation, internalQuery } from "./_generated/server";

export const insert = internalMutation({
  args: { author: v.string(), body: v.string() },
  returns: v.id("messages"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("messages", { author: args.author, body: args.body });
  },
});

export const list = internalQuery({
  args: {},
  returns: v.array(v.object({ author: v.string(), body: v.string() })),
  handler: async (ctx) => {
    const messages = await ctx.db.query("messages").order("asc").collect();
    return messages.map((m) => ({ author: m.author, body: m.body }));
  },
});
