import { v } from "convex/values";
import { internalMutation, internalQuery } from "./_generated/server";

export const add = internalMutation({
  args: { sku: v.string(), name: v.string(), price: v.number() },
  returns: v.id("products"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("products", { sku: args.sku, name: args.name, price: args.price });
  },
});

export const getBySku = internalQuery({
  args: { sku: v.string() },
  returns: v.union(v.null(), v.object({ sku: v.string(), name: v.string(), price: v.number() })),
  handler: async (ctx, args) => {
    const product = await ctx.db
      .query("products")
      .withIndex("by_sku", (q) => q.eq("sku", args.sku))
      .unique();
    if (product === null) {
      return null;
    }
    return { sku: product.sku, name: product.name, price: product.price };
  },
});
