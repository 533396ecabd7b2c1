import { v } from "convex/values";
import { internalMutation } from "./_generated/server";

export const purgeExpired = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const now = Date.now();
    const expired = await ctx.db
      .query("sessions")
      .withIndex("by_expiresAt", (q) => q.lte("expiresAt", now))
      .collect();
    for (const session of expired) {
      await ctx.db.delete("sessions", session._id);
    }
    return expired.length;
  },
});

export const recordActiveCount = internalMutation({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const now = Date.now();
    const active = await ctx.db
      .query("sessions")
      .withIndex("by_expiresAt", (q) => q.gt("expiresAt", now))
      .collect();
    await ctx.db.insert("sessionCounts", { count: active.length, takenAt: now });
    return active.length;
  },
});
