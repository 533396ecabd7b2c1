import { v } from "convex/values";
import { internalMutation, mutation, query } from "./_generated/server";
import { internal } from "./_generated/api";

export const postMany = mutation({
  args: { channel: v.string(), texts: v.array(v.string()) },
  returns: v.array(v.id("messages")),
  handler: async (ctx, args) => {
    const ids = [];
    for (const text of args.texts) {
      ids.push(await ctx.db.insert("messages", { channel: args.channel, text, archived: false }));
    }
    return ids;
  },
});

export const archiveChannel = mutation({
  args: { channel: v.string() },
  returns: v.number(),
  handler: async (ctx, args) => {
    const active = await ctx.db
      .query("messages")
      .withIndex("by_channel_and_archived", (q) => q.eq("channel", args.channel).eq("archived", false))
      .collect();
    await Promise.all(active.map((m) => ctx.db.patch("messages", m._id, { archived: true })));
    if (active.length > 0) {
      await ctx.scheduler.runAfter(0, internal.messages.recordNotice, {
        channel: args.channel,
        count: active.length,
      });
    }
    return active.length;
  },
});

export const recordNotice = internalMutation({
  args: { channel: v.string(), count: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.insert("notices", { text: `Archived ${args.count} messages in #${args.channel}` });
    return null;
  },
});

export const listActive = query({
  args: { channel: v.string() },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const messages = await ctx.db
      .query("messages")
      .withIndex("by_channel_and_archived", (q) => q.eq("channel", args.channel).eq("archived", false))
      .collect();
    return messages.map((m) => m.text);
  },
});

export const listNotices = query({
  args: {},
  returns: v.array(v.string()),
  handler: async (ctx) => {
    const notices = await ctx.db.query("notices").collect();
    return notices.map((n) => n.text);
  },
});
