import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const record = mutation({
  args: { subject: v.string(), action: v.string(), at: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.insert("events", args);
    return null;
  },
});

export const forSubject = query({
  args: { subject: v.string() },
  returns: v.array(v.object({ action: v.string(), at: v.number() })),
  handler: async (ctx, { subject }) => {
    const events = await ctx.db
      .query("events")
      .withIndex("by_subject_and_at", (q) => q.eq("subject", subject))
      .order("desc")
      .collect();
    return events.map(({ action, at }) => ({ action, at }));
  },
});
