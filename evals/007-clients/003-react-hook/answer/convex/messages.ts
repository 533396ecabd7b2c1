import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const send = mutation({
  args: { channel: v.string(), body: v.string() },
  returns: v.id("messages"),
  handler: async (ctx, args) => {
    if (args.body.trim() === "") {
      throw new Error("Message body must not be empty");
    }
    return await ctx.db.insert("messages", { channel: args.channel, body: args.body });
  },
});

export const list = query({
  args: { channel: v.string() },
  returns: v.array(v.object({ _id: v.id("messages"), body: v.string() })),
  handler: async (ctx, args) => {
    const messages = await ctx.db
      .query("messages")
      .withIndex("by_channel", (q) => q.eq("channel", args.channel))
      .order("asc")
      .collect();
    return messages.map((m) => ({ _id: m._id, body: m.body }));
  },
});
