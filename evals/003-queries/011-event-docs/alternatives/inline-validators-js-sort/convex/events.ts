import { mutation, query } from "./_generated/server";
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";

export const create = mutation({
  args: {
    title: v.string(),
    startsAt: v.number(),
    kind: v.union(v.literal("talk"), v.literal("workshop")),
    room: v.optional(v.string()),
  },
  returns: v.id("events"),
  handler: async (ctx, { title, startsAt, kind, room }) => {
    return room === undefined
      ? await ctx.db.insert("events", { title, startsAt, kind })
      : await ctx.db.insert("events", { title, startsAt, kind, room });
  },
});

export const get = query({
  args: { eventId: v.id("events") },
  returns: v.union(
    v.object({
      _id: v.id("events"),
      _creationTime: v.number(),
      title: v.string(),
      startsAt: v.number(),
      kind: v.union(v.literal("talk"), v.literal("workshop")),
      room: v.optional(v.string()),
    }),
    v.null(),
  ),
  handler: async (ctx, { eventId }) => await ctx.db.get("events", eventId),
});

export const upcoming = query({
  args: { now: v.number() },
  returns: v.array(
    v.object({
      _id: v.id("events"),
      _creationTime: v.number(),
      title: v.string(),
      startsAt: v.number(),
      kind: v.union(v.literal("talk"), v.literal("workshop")),
      room: v.optional(v.string()),
    }),
  ),
  handler: async (ctx, { now }) =>
    await ctx.db
      .query("events")
      .withIndex("by_start", (q) => q.gte("startsAt", now))
      .order("asc")
      .take(10),
});

export const byKind = query({
  args: { kind: v.union(v.literal("talk"), v.literal("workshop")) },
  returns: v.array(v.string()),
  handler: async (ctx, { kind }) => {
    const events = await ctx.db.query("events").withIndex("by_start").collect();
    const titles: string[] = [];
    for (const event of events) {
      if (event.kind === kind) titles.push(event.title);
    }
    return titles;
  },
});

export const schedule = query({
  args: { paginationOpts: paginationOptsValidator },
  returns: paginationResultValidator(
    v.object({
      _id: v.id("events"),
      _creationTime: v.number(),
      title: v.string(),
      startsAt: v.number(),
      kind: v.union(v.literal("talk"), v.literal("workshop")),
      room: v.optional(v.string()),
    }),
  ),
  handler: async (ctx, { paginationOpts }) =>
    await ctx.db.query("events").withIndex("by_start").order("asc").paginate(paginationOpts),
});
