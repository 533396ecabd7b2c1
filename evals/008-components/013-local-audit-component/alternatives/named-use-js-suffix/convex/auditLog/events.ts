import { v } from "convex/values";
import { mutation, query } from "./_generated/server";
import type { Doc } from "./_generated/dataModel";

const toEntry = (event: Doc<"events">) => ({ action: event.action, at: event.at });

export const record = mutation({
  args: { subject: v.string(), action: v.string(), at: v.number() },
  returns: v.null(),
  handler: async (ctx, { subject, action, at }) => {
    await ctx.db.insert("events", { subject, action, at });
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
      .take(1000);
    return events.map(toEntry);
  },
});
