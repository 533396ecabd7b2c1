import { internalMutation, mutation, query } from "./_generated/server";
import { internal } from "./_generated/api";
import { ConvexError, v } from "convex/values";

const EXPIRY_MS = 15 * 60 * 1000;

export const place = mutation({
  args: {
    item: v.string(),
  },
  returns: v.id("orders"),
  handler: async (ctx, args) => {
    const orderId = await ctx.db.insert("orders", { item: args.item, status: "pending" });
    const expiryJob = await ctx.scheduler.runAfter(EXPIRY_MS, internal.orders.expire, { orderId });
    await ctx.db.patch("orders", orderId, { expiryJob });
    return orderId;
  },
});

export const expire = internalMutation({
  args: {
    orderId: v.id("orders"),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const order = await ctx.db.get("orders", args.orderId);
    if (order === null || order.status !== "pending") {
      return null;
    }
    await ctx.db.patch("orders", args.orderId, { status: "expired", expiryJob: undefined });
    return null;
  },
});

export const confirm = mutation({
  args: {
    orderId: v.id("orders"),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const order = await ctx.db.get("orders", args.orderId);
    if (order === null) {
      throw new ConvexError({ code: "NOT_FOUND" });
    }
    if (order.status !== "pending") {
      throw new ConvexError({ code: "NOT_PENDING", status: order.status });
    }
    if (order.expiryJob !== undefined) {
      await ctx.scheduler.cancel(order.expiryJob);
    }
    await ctx.db.patch("orders", args.orderId, { status: "confirmed", expiryJob: undefined });
    return null;
  },
});

export const status = query({
  args: {
    orderId: v.id("orders"),
  },
  returns: v.union(v.literal("pending"), v.literal("confirmed"), v.literal("expired"), v.null()),
  handler: async (ctx, args) => {
    const order = await ctx.db.get("orders", args.orderId);
    return order === null ? null : order.status;
  },
});
