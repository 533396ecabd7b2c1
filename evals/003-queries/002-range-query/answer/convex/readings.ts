import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

export const add = mutation({
  args: {
    sensorId: v.string(),
    timestamp: v.number(),
    value: v.number(),
  },
  returns: v.id("readings"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("readings", {
      sensorId: args.sensorId,
      timestamp: args.timestamp,
      value: args.value,
    });
  },
});

export const between = query({
  args: {
    sensorId: v.string(),
    from: v.number(),
    to: v.number(),
  },
  returns: v.array(v.number()),
  handler: async (ctx, args) => {
    const readings = await ctx.db
      .query("readings")
      .withIndex("by_sensor_and_time", (q) =>
        q.eq("sensorId", args.sensorId).gte("timestamp", args.from).lt("timestamp", args.to),
      )
      .collect();
    return readings.map((reading) => reading.value);
  },
});

export const latestReading = query({
  args: {
    sensorId: v.string(),
  },
  returns: v.union(
    v.object({
      timestamp: v.number(),
      value: v.number(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const reading = await ctx.db
      .query("readings")
      .withIndex("by_sensor_and_time", (q) => q.eq("sensorId", args.sensorId))
      .order("desc")
      .first();
    if (reading === null) {
      return null;
    }
    return { timestamp: reading.timestamp, value: reading.value };
  },
});
