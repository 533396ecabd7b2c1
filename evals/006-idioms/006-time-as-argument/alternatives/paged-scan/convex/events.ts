import { ConvexError, v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const create = mutation({
  args: { title: v.string(), startsAt: v.number(), endsAt: v.number() },
  returns: v.id("events"),
  handler: async (ctx, { title, startsAt, endsAt }) => {
    if (endsAt <= startsAt) {
      throw new ConvexError({ code: "INVALID_ARGUMENT", message: `endsAt (${endsAt}) <= startsAt (${startsAt})` });
    }
    return await ctx.db.insert("events", { title, startsAt, endsAt });
  },
});

export const listUpcoming = query({
  args: { now: v.number(), limit: v.number() },
  returns: v.array(v.object({ title: v.string(), startsAt: v.number() })),
  handler: async (ctx, { now, limit }) => {
    const out: { title: string; startsAt: number }[] = [];
    if (limit <= 0) return out;
    for await (const event of ctx.db
      .query("events")
      .withIndex("by_startsAt", (q) => q.gt("startsAt", now))
      .order("asc")) {
      out.push({ title: event.title, startsAt: event.startsAt });
      if (out.length >= limit) break;
    }
    return out;
  },
});

export const listHappeningAt = query({
  args: { now: v.number() },
  returns: v.array(v.string()),
  handler: async (ctx, { now }) => {
    const titles: string[] = [];
    for await (const event of ctx.db
      .query("events")
      .withIndex("by_startsAt", (q) => q.lte("startsAt", now))) {
      if (now < event.endsAt) titles.push(event.title);
    }
    return titles;
  },
});
