import { action, internalMutation, internalQuery, mutation } from "./_generated/server";
import { internal } from "./_generated/api";
import { ConvexError, v } from "convex/values";
import type { Id } from "./_generated/dataModel";

export const addStock = mutation({
  args: {
    sku: v.string(),
    quantity: v.number(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("inventory")
      .withIndex("by_sku", (q) => q.eq("sku", args.sku))
      .unique();
    if (row === null) {
      await ctx.db.insert("inventory", { sku: args.sku, stock: args.quantity });
    } else {
      await ctx.db.patch("inventory", row._id, { stock: row.stock + args.quantity });
    }
    return null;
  },
});

export const getStock = internalQuery({
  args: {
    sku: v.string(),
  },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("inventory")
      .withIndex("by_sku", (q) => q.eq("sku", args.sku))
      .unique();
    return row === null ? null : row.stock;
  },
});

export const reserve = internalMutation({
  args: {
    sku: v.string(),
    quantity: v.number(),
  },
  returns: v.id("reservations"),
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("inventory")
      .withIndex("by_sku", (q) => q.eq("sku", args.sku))
      .unique();
    if (row === null) {
      throw new ConvexError({ code: "UNKNOWN_SKU" });
    }
    if (row.stock < args.quantity) {
      throw new ConvexError({ code: "OUT_OF_STOCK", available: row.stock });
    }
    await ctx.db.patch("inventory", row._id, { stock: row.stock - args.quantity });
    return await ctx.db.insert("reservations", { inventoryId: row._id, quantity: args.quantity });
  },
});

export const checkout = action({
  args: {
    sku: v.string(),
    quantity: v.number(),
  },
  returns: v.id("reservations"),
  handler: async (ctx, args): Promise<Id<"reservations">> => {
    if (!Number.isInteger(args.quantity) || args.quantity <= 0) {
      throw new ConvexError({ code: "INVALID_QUANTITY" });
    }
    const stock = await ctx.runQuery(internal.checkout.getStock, { sku: args.sku });
    if (stock === null) {
      throw new ConvexError({ code: "UNKNOWN_SKU" });
    }
    return await ctx.runMutation(internal.checkout.reserve, {
      sku: args.sku,
      quantity: args.quantity,
    });
  },
});
