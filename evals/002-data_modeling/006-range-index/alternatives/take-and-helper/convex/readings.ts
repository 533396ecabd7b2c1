import { mutation, query } from "./_generated/server";
import type { Doc } from "./_generated/dataModel";
import { v } from "convex/values";

const toPoint = (r: Doc<"readings">) => ({ takenAt: r.takenAt, value: r.value });

export const record = mutation({
  args: { sensor: v.string(), takenAt: v.number(), value: v.number() },
  returns: v.id("readings"),
  handler: async (ctx, args) => await ctx.db.insert("readings", args),
});

export const inRange = query({
  args: { sensor: v.string(), from: v.number(), to: v.number() },
  returns: v.array(v.object({ takenAt: v.number(), value: v.number() })),
  handler: async (ctx, { sensor, from, to }) => {
    const rows = await ctx.db
      .query("readings")
      .withIndex("by_sensor_and_time", (q) =>
        q.eq("sensor", sensor).gte("takenAt", from).lt("takenAt", to),
      )
      .order("asc")
      .collect();
    return rows.map(toPoint);
  },
});

export const latest = query({
  args: { sensor: v.string() },
  returns: v.union(v.object({ takenAt: v.number(), value: v.number() }), v.null()),
  handler: async (ctx, { sensor }) => {
    const rows = await ctx.db
      .query("readings")
      .withIndex("by_sensor_and_time", (q) => q.eq("sensor", sensor))
      .order("desc")
      .take(1);
    return rows.length === 0 ? null : toPoint(rows[0]);
  },
});
