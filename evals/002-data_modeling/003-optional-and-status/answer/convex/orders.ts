import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

const orderStatus = v.union(
  v.literal("pending"),
  v.literal("shipped"),
  v.literal("cancelled"),
);

export const create = mutation({
  args: {
    customer: v.string(),
    note: v.optional(v.string()),
  },
  returns: v.id("orders"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("orders", {
      customer: args.customer,
      status: "pending",
      note: args.note,
    });
  },
});

export const ship = mutation({
  args: {
    orderId: v.id("orders"),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const order = await ctx.db.get("orders", args.orderId);
    if (order === null) {
      throw new ConvexError("Order not found");
    }
    if (order.status !== "pending") {
      throw new ConvexError("Only pending orders can be shipped");
    }
    await ctx.db.patch("orders", args.orderId, { status: "shipped", shippedAt: Date.now() });
    return null;
  },
});

export const listByStatus = query({
  args: {
    status: orderStatus,
  },
  returns: v.array(
    v.object({
      _id: v.id("orders"),
      _creationTime: v.number(),
      customer: v.string(),
      status: orderStatus,
      note: v.optional(v.string()),
      shippedAt: v.optional(v.number()),
    }),
  ),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("orders")
      .withIndex("by_status", (q) => q.eq("status", args.status))
      .collect();
  },
});
