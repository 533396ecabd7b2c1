import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

export const create = mutation({
  args: {
    code: v.string(),
    percentOff: v.number(),
    remaining: v.number(),
  },
  returns: v.id("coupons"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("coupons", {
      code: args.code,
      percentOff: args.percentOff,
      remaining: args.remaining,
    });
  },
});

export const redeem = mutation({
  args: {
    code: v.string(),
  },
  returns: v.union(
    v.object({
      ok: v.literal(true),
      percentOff: v.number(),
      remaining: v.number(),
    }),
    v.object({
      ok: v.literal(false),
      reason: v.union(v.literal("unknown"), v.literal("exhausted")),
    }),
  ),
  handler: async (ctx, args) => {
    const coupon = await ctx.db
      .query("coupons")
      .withIndex("by_code", (q) => q.eq("code", args.code))
      .unique();
    if (coupon === null) {
      return { ok: false as const, reason: "unknown" as const };
    }
    if (coupon.remaining <= 0) {
      return { ok: false as const, reason: "exhausted" as const };
    }
    const remaining = coupon.remaining - 1;
    await ctx.db.patch("coupons", coupon._id, { remaining });
    return { ok: true as const, percentOff: coupon.percentOff, remaining };
  },
});

export const peek = query({
  args: {
    code: v.string(),
  },
  returns: v.union(
    v.object({
      percentOff: v.number(),
      remaining: v.number(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const coupon = await ctx.db
      .query("coupons")
      .withIndex("by_code", (q) => q.eq("code", args.code))
      .unique();
    if (coupon === null) {
      return null;
    }
    return { percentOff: coupon.percentOff, remaining: coupon.remaining };
  },
});
