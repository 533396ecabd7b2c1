import { v } from "convex/values";
import { action, internalMutation, query } from "./_generated/server";
import { internal } from "./_generated/api";
import { fetchCurrentTemperature, type WeatherResult } from "./lib/weatherApi";

export const refreshForecast = action({
  args: { city: v.string() },
  returns: v.union(
    v.object({ ok: v.literal(true), temperatureC: v.number() }),
    v.object({ ok: v.literal(false), status: v.number() }),
  ),
  handler: async (ctx, { city }): Promise<WeatherResult> => {
    const result = await fetchCurrentTemperature(city);
    if (result.ok) {
      await ctx.runMutation(internal.weather.saveForecast, { city, temperatureC: result.temperatureC });
    }
    return result;
  },
});

export const saveForecast = internalMutation({
  args: { city: v.string(), temperatureC: v.number() },
  returns: v.null(),
  handler: async (ctx, { city, temperatureC }) => {
    const fetchedAt = Date.now();
    const existing = await ctx.db
      .query("forecasts")
      .withIndex("by_city", (q) => q.eq("city", city))
      .first();
    if (existing) {
      await ctx.db.replace("forecasts", existing._id, { city, temperatureC, fetchedAt });
      return null;
    }
    await ctx.db.insert("forecasts", { city, temperatureC, fetchedAt });
    return null;
  },
});

export const getForecast = query({
  args: { city: v.string() },
  returns: v.union(v.object({ city: v.string(), temperatureC: v.number() }), v.null()),
  handler: async (ctx, { city }) => {
    const row = await ctx.db
      .query("forecasts")
      .withIndex("by_city", (q) => q.eq("city", city))
      .first();
    if (!row) return null;
    return { city: row.city, temperatureC: row.temperatureC };
  },
});
