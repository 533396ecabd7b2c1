import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";
import { lineItem } from "./schema";

export const place = mutation({
  args: {
    customer: v.string(),
    items: v.array(lineItem),
  },
  returns: v.object({
    orderId: v.id("orders"),
    total: v.number(),
  }),
  handler: async (ctx, args) => {
    if (args.items.length === 0) {
      throw new ConvexError("An order needs at least one item");
    }
    for (const item of args.items) {
      if (!Number.isInteger(item.quantity) || item.quantity <= 0) {
        throw new ConvexError(`Invalid quantity for ${item.sku}`);
      }
    }
    const total = args.items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0);
    const orderId = await ctx.db.insert("orders", {
      customer: args.customer,
      items: args.items,
      total,
    });
    return { orderId, total };
  },
});

export const get = query({
  args: {
    orderId: v.id("orders"),
  },
  returns: v.union(
    v.object({
      _id: v.id("orders"),
      _creationTime: v.number(),
      customer: v.string(),
      items: v.array(lineItem),
      total: v.number(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db.get("orders", args.orderId);
  },
});

export const skusFor = query({
  args: {
    customer: v.string(),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const orders = await ctx.db.query("orders").collect();
    const skus = new Set<string>();
    for (const order of orders) {
      if (order.customer === args.customer) {
        for (const item of order.items) {
          skus.add(item.sku);
        }
      }
    }
    return [...skus].sort();
  },
});
