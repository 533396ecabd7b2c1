import { v } from "convex/values";
import { internalMutation, query } from "./_generated/server";

const paymentStatus = v.union(v.literal("paid"), v.literal("refunded"));

export const recordEvent = internalMutation({
  args: { externalId: v.string(), amountCents: v.number(), status: paymentStatus },
  returns: v.id("payments"),
  handler: async (ctx, args) => {
    const existing = await ctx.db
      .query("payments")
      .withIndex("by_externalId", (q) => q.eq("externalId", args.externalId))
      .unique();
    if (existing !== null) {
      await ctx.db.patch("payments", existing._id, {
        amountCents: args.amountCents,
        status: args.status,
      });
      return existing._id;
    }
    return await ctx.db.insert("payments", {
      externalId: args.externalId,
      amountCents: args.amountCents,
      status: args.status,
    });
  },
});

export const getPayment = query({
  args: { externalId: v.string() },
  returns: v.union(v.object({ amountCents: v.number(), status: paymentStatus }), v.null()),
  handler: async (ctx, args) => {
    const payment = await ctx.db
      .query("payments")
      .withIndex("by_externalId", (q) => q.eq("externalId", args.externalId))
      .unique();
    return payment === null ? null : { amountCents: payment.amountCents, status: payment.status };
  },
});
