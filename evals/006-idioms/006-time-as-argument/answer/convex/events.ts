import { ConvexError, v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const create = mutation({
  args: { title: v.string(), startsAt: v.number(), endsAt: v.number() },
  returns: v.id("events"),
  handler: async (ctx, args) => {
    if (!(args.endsAt > args.startsAt)) {
      throw new ConvexError({ code: "INVALID_ARGUMENT", message: "endsAt must be after startsAt" });
    }
    return await ctx.db.insert("events", {
      title: args.title,
      startsAt: args.startsAt,
      endsAt: args.endsAt,
    });
  },
});

export const listUpcoming = query({
  args: { now: v.number(), limit: v.number() },
  returns: v.array(v.object({ title: v.string(), startsAt: v.number() })),
  handler: async (ctx, args) => {
    const events = await ctx.db
      .query("events")
      .withIndex("by_startsAt", (q) => q.gt("startsAt", args.now))
      .take(args.limit);
    return events.map((e) => ({ title: e.title, startsAt: e.startsAt }));
  },
});

export const listHappeningAt = query({
  args: { now: v.number() },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const started = await ctx.db
      .query("events")
      .withIndex("by_startsAt", (q) => q.lte("startsAt", args.now))
      .collect();
    return started.filter((e) => e.endsAt > args.now).map((e) => e.title);
  },
});
