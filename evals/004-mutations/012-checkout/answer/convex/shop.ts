import { mutation, query } from "./_generated/server";
import type { Doc } from "./_generated/dataModel";
import { ConvexError, v } from "convex/values";

const MAX_ITEMS = 20;

export const addProduct = mutation({
  args: {
    sku: v.string(),
    name: v.string(),
    price: v.number(),
    stock: v.number(),
  },
  returns: v.id("products"),
  handler: async (ctx, args) => {
    const existing = await ctx.db
      .query("products")
      .withIndex("by_sku", (q) => q.eq("sku", args.sku))
      .unique();
    if (existing !== null) {
      throw new ConvexError({ code: "DUPLICATE_SKU", sku: args.sku });
    }
    return await ctx.db.insert("products", {
      sku: args.sku,
      name: args.name,
      price: args.price,
      stock: args.stock,
    });
  },
});

export const checkout = mutation({
  args: {
    items: v.array(v.object({ sku: v.string(), quantity: v.number() })),
  },
  returns: v.object({
    orderId: v.id("orders"),
    total: v.number(),
  }),
  handler: async (ctx, args) => {
    const skus = new Set(args.items.map((item) => item.sku));
    const badQuantity = args.items.some((item) => !Number.isInteger(item.quantity) || item.quantity < 1);
    if (args.items.length === 0 || args.items.length > MAX_ITEMS || skus.size !== args.items.length || badQuantity) {
      throw new ConvexError({ code: "BAD_CART" });
    }
    // Read and check every line before the first write.
    const lines: Array<{ product: Doc<"products">; quantity: number }> = [];
    for (const item of args.items) {
      const product = await ctx.db
        .query("products")
        .withIndex("by_sku", (q) => q.eq("sku", item.sku))
        .unique();
      if (product === null) {
        throw new ConvexError({ code: "UNKNOWN_SKU", sku: item.sku });
      }
      if (product.stock < item.quantity) {
        throw new ConvexError({ code: "OUT_OF_STOCK", sku: item.sku, available: product.stock });
      }
      lines.push({ product, quantity: item.quantity });
    }
    let total = 0;
    for (const { product, quantity } of lines) {
      await ctx.db.patch("products", product._id, { stock: product.stock - quantity });
      total += product.price * quantity;
    }
    const orderId = await ctx.db.insert("orders", { items: args.items, total });
    return { orderId, total };
  },
});

export const stockOf = query({
  args: {
    sku: v.string(),
  },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const product = await ctx.db
      .query("products")
      .withIndex("by_sku", (q) => q.eq("sku", args.sku))
      .unique();
    return product === null ? null : product.stock;
  },
});
