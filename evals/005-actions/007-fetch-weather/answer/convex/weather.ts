import { v } from "convex/values";
import { action, internalMutation, query } from "./_generated/server";
import { internal } from "./_generated/api";

export const refreshForecast = action({
  args: { city: v.string() },
  returns: v.union(
    v.object({ ok: v.literal(true), temperatureC: v.number() }),
    v.object({ ok: v.literal(false), status: v.number() }),
  ),
  handler: async (ctx, args) => {
    const url = "https://weather.example.com/v1/current?city=" + encodeURIComponent(args.city);
    const response = await fetch(url);
    if (!response.ok) {
      return { ok: false as const, status: response.status };
    }
    const body = (await response.json()) as { temperatureC: number };
    await ctx.runMutation(internal.weather.saveForecast, {
      city: args.city,
      temperatureC: body.temperatureC,
    });
    return { ok: true as const, temperatureC: body.temperatureC };
  },
});

export const saveForecast = internalMutation({
  args: { city: v.string(), temperatureC: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const existing = await ctx.db
      .query("forecasts")
      .withIndex("by_city", (q) => q.eq("city", args.city))
      .unique();
    if (existing === null) {
      await ctx.db.insert("forecasts", {
        city: args.city,
        temperatureC: args.temperatureC,
        fetchedAt: Date.now(),
      });
    } else {
      await ctx.db.patch("forecasts", existing._id, {
        temperatureC: args.temperatureC,
        fetchedAt: Date.now(),
      });
    }
    return null;
  },
});

export const getForecast = query({
  args: { city: v.string() },
  returns: v.union(v.object({ city: v.string(), temperatureC: v.number() }), v.null()),
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("forecasts")
      .withIndex("by_city", (q) => q.eq("city", args.city))
      .unique();
    return row === null ? null : { city: row.city, temperatureC: row.temperatureC };
  },
});
