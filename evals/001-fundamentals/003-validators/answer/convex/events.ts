import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

const eventKind = v.union(
  v.literal("click"),
  v.literal("view"),
  v.literal("purchase"),
);

export const record = mutation({
  args: {
    userId: v.id("users"),
    kind: eventKind,
    amount: v.optional(v.number()),
    tags: v.array(v.string()),
  },
  returns: v.id("events"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("events", {
      userId: args.userId,
      kind: args.kind,
      amount: args.amount,
      tags: args.tags,
    });
  },
});

export const get = query({
  args: {
    eventId: v.id("events"),
  },
  returns: v.union(
    v.object({
      _id: v.id("events"),
      _creationTime: v.number(),
      userId: v.id("users"),
      kind: eventKind,
      amount: v.optional(v.number()),
      tags: v.array(v.string()),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db.get("events", args.eventId);
  },
});
