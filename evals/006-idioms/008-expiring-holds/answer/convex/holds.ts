import { ConvexError, v } from "convex/values";
import { internalMutation, mutation, query } from "./_generated/server";
import type { QueryCtx } from "./_generated/server";
import { internal } from "./_generated/api";

const HOLD_MS = 600_000;

async function holdsForSeat(ctx: QueryCtx, seat: string) {
  return await ctx.db
    .query("holds")
    .withIndex("by_seat", (q) => q.eq("seat", seat))
    .collect();
}

export const placeHold = mutation({
  args: { seat: v.string(), holder: v.string() },
  returns: v.id("holds"),
  handler: async (ctx, args) => {
    const now = Date.now();
    const holds = await holdsForSeat(ctx, args.seat);
    const taken = holds.some(
      (h) => h.status === "confirmed" || (h.status === "active" && h.expiresAt > now),
    );
    if (taken) {
      throw new ConvexError({ code: "SEAT_TAKEN", message: `Seat ${args.seat} is taken` });
    }
    const holdId = await ctx.db.insert("holds", {
      seat: args.seat,
      holder: args.holder,
      expiresAt: now + HOLD_MS,
      status: "active",
    });
    await ctx.scheduler.runAfter(HOLD_MS, internal.holds.expireHold, { holdId });
    return holdId;
  },
});

export const expireHold = internalMutation({
  args: { holdId: v.id("holds") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const hold = await ctx.db.get("holds", args.holdId);
    if (hold !== null && hold.status === "active") {
      await ctx.db.patch("holds", args.holdId, { status: "released" });
    }
    return null;
  },
});

export const confirmHold = mutation({
  args: { holdId: v.id("holds") },
  returns: v.boolean(),
  handler: async (ctx, args) => {
    const hold = await ctx.db.get("holds", args.holdId);
    if (hold === null || hold.status !== "active" || hold.expiresAt <= Date.now()) {
      return false;
    }
    await ctx.db.patch("holds", args.holdId, { status: "confirmed" });
    return true;
  },
});

export const seatStatus = query({
  args: { seat: v.string(), now: v.number() },
  returns: v.union(v.literal("confirmed"), v.literal("held"), v.literal("free")),
  handler: async (ctx, args) => {
    const holds = await holdsForSeat(ctx, args.seat);
    if (holds.some((h) => h.status === "confirmed")) {
      return "confirmed" as const;
    }
    if (holds.some((h) => h.status === "active" && h.expiresAt > args.now)) {
      return "held" as const;
    }
    return "free" as const;
  },
});
