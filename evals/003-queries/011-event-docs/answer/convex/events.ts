import { mutation, query } from "./_generated/server";
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";

const kind = v.union(v.literal("talk"), v.literal("workshop"));

const eventDoc = v.object({
  _id: v.id("events"),
  _creationTime: v.number(),
  title: v.string(),
  startsAt: v.number(),
  kind,
  room: v.optional(v.string()),
});

export const create = mutation({
  args: {
    title: v.string(),
    startsAt: v.number(),
    kind,
    room: v.optional(v.string()),
  },
  returns: v.id("events"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("events", {
      title: args.title,
      startsAt: args.startsAt,
      kind: args.kind,
      room: args.room,
    });
  },
});

export const get = query({
  args: {
    eventId: v.id("events"),
  },
  returns: v.union(eventDoc, v.null()),
  handler: async (ctx, args) => {
    return await ctx.db.get("events", args.eventId);
  },
});

export const upcoming = query({
  args: {
    now: v.number(),
  },
  returns: v.array(eventDoc),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("events")
      .withIndex("by_start", (q) => q.gte("startsAt", args.now))
      .take(10);
  },
});

export const byKind = query({
  args: {
    kind,
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const events = await ctx.db.query("events").withIndex("by_start").collect();
    return events.filter((event) => event.kind === args.kind).map((event) => event.title);
  },
});

export const schedule = query({
  args: {
    paginationOpts: paginationOptsValidator,
  },
  returns: paginationResultValidator(eventDoc),
  handler: async (ctx, args) => {
    return await ctx.db.query("events").withIndex("by_start").paginate(args.paginationOpts);
  },
});
