import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

const point = v.object({ takenAt: v.number(), value: v.number() });

export const record = mutation({
  args: {
    sensor: v.string(),
    takenAt: v.number(),
    value: v.number(),
  },
  returns: v.id("readings"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("readings", {
      sensor: args.sensor,
      takenAt: args.takenAt,
      value: args.value,
    });
  },
});

export const inRange = query({
  args: {
    sensor: v.string(),
    from: v.number(),
    to: v.number(),
  },
  returns: v.array(point),
  handler: async (ctx, args) => {
    const rows = await ctx.db
      .query("readings")
      .withIndex("by_sensor_and_time", (q) =>
        q.eq("sensor", args.sensor).gte("takenAt", args.from).lt("takenAt", args.to),
      )
      .collect();
    return rows.map((r) => ({ takenAt: r.takenAt, value: r.value }));
  },
});

export const latest = query({
  args: {
    sensor: v.string(),
  },
  returns: v.union(point, v.null()),
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("readings")
      .withIndex("by_sensor_and_time", (q) => q.eq("sensor", args.sensor))
      .order("desc")
      .first();
    return row === null ? null : { takenAt: row.takenAt, value: row.value };
  },
});
