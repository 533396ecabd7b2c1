import { v } from "convex/values";
import { internalMutation, mutation, query } from "./_generated/server";
import { internal } from "./_generated/api";

const reminderStatus = v.union(v.literal("scheduled"), v.literal("sent"), v.literal("canceled"));

export const create = mutation({
  args: { text: v.string(), remindAt: v.number() },
  returns: v.id("reminders"),
  handler: async (ctx, args) => {
    const reminderId = await ctx.db.insert("reminders", {
      text: args.text,
      remindAt: args.remindAt,
      status: "scheduled",
    });
    const jobId = await ctx.scheduler.runAt(args.remindAt, internal.reminders.deliver, { reminderId });
    await ctx.db.patch("reminders", reminderId, { jobId });
    return reminderId;
  },
});

export const deliver = internalMutation({
  args: { reminderId: v.id("reminders") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const reminder = await ctx.db.get("reminders", args.reminderId);
    if (reminder !== null && reminder.status === "scheduled") {
      await ctx.db.patch("reminders", args.reminderId, { status: "sent" });
    }
    return null;
  },
});

export const cancel = mutation({
  args: { reminderId: v.id("reminders") },
  returns: v.boolean(),
  handler: async (ctx, args) => {
    const reminder = await ctx.db.get("reminders", args.reminderId);
    if (reminder === null || reminder.status !== "scheduled") {
      return false;
    }
    if (reminder.jobId !== undefined) {
      await ctx.scheduler.cancel(reminder.jobId);
    }
    await ctx.db.patch("reminders", args.reminderId, { status: "canceled" });
    return true;
  },
});

export const get = query({
  args: { reminderId: v.id("reminders") },
  returns: v.union(
    v.object({ text: v.string(), remindAt: v.number(), status: reminderStatus }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const reminder = await ctx.db.get("reminders", args.reminderId);
    if (reminder === null) {
      return null;
    }
    return { text: reminder.text, remindAt: reminder.remindAt, status: reminder.status };
  },
});
