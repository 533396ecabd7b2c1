import { mutation, query } from "./_generated/server";
import type { QueryCtx } from "./_generated/server";
import type { Id } from "./_generated/dataModel";
import { ConvexError, v } from "convex/values";

async function reservationCount(ctx: QueryCtx, eventId: Id<"events">): Promise<number> {
  const reservations = await ctx.db
    .query("reservations")
    .withIndex("by_event_and_user", (q) => q.eq("eventId", eventId))
    .collect();
  return reservations.length;
}

export const createEvent = mutation({
  args: {
    name: v.string(),
    capacity: v.number(),
  },
  returns: v.id("events"),
  handler: async (ctx, args) => {
    if (!Number.isInteger(args.capacity) || args.capacity < 1) {
      throw new ConvexError({ code: "INVALID_CAPACITY", capacity: args.capacity });
    }
    return await ctx.db.insert("events", { name: args.name, capacity: args.capacity });
  },
});

export const reserve = mutation({
  args: {
    eventId: v.id("events"),
    userId: v.string(),
  },
  returns: v.id("reservations"),
  handler: async (ctx, args) => {
    const event = await ctx.db.get("events", args.eventId);
    if (event === null) {
      throw new ConvexError({ code: "EVENT_NOT_FOUND" });
    }
    const existing = await ctx.db
      .query("reservations")
      .withIndex("by_event_and_user", (q) => q.eq("eventId", args.eventId).eq("userId", args.userId))
      .unique();
    if (existing !== null) {
      throw new ConvexError({ code: "ALREADY_RESERVED", reservationId: existing._id });
    }
    if ((await reservationCount(ctx, args.eventId)) >= event.capacity) {
      throw new ConvexError({ code: "SOLD_OUT", capacity: event.capacity });
    }
    return await ctx.db.insert("reservations", { eventId: args.eventId, userId: args.userId });
  },
});

export const cancel = mutation({
  args: {
    eventId: v.id("events"),
    userId: v.string(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const reservation = await ctx.db
      .query("reservations")
      .withIndex("by_event_and_user", (q) => q.eq("eventId", args.eventId).eq("userId", args.userId))
      .unique();
    if (reservation === null) {
      throw new ConvexError({ code: "NO_RESERVATION" });
    }
    await ctx.db.delete("reservations", reservation._id);
    return null;
  },
});

export const seatsLeft = query({
  args: {
    eventId: v.id("events"),
  },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const event = await ctx.db.get("events", args.eventId);
    if (event === null) {
      return null;
    }
    return event.capacity - (await reservationCount(ctx, args.eventId));
  },
});
