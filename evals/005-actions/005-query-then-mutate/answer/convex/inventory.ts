import { v } from "convex/values";
import { action, internalMutation, internalQuery, query } from "./_generated/server";
import { internal } from "./_generated/api";

const itemDoc = v.object({
  _id: v.id("items"),
  _creationTime: v.number(),
  sku: v.string(),
  quantity: v.number(),
});

export const getBySku = internalQuery({
  args: { sku: v.string() },
  returns: v.union(itemDoc, v.null()),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("items")
      .withIndex("by_sku", (q) => q.eq("sku", args.sku))
      .unique();
  },
});

export const setQuantity = internalMutation({
  args: { itemId: v.id("items"), quantity: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.patch("items", args.itemId, { quantity: args.quantity });
    return null;
  },
});

export const restock = action({
  args: { sku: v.string(), amount: v.number() },
  returns: v.number(),
  handler: async (ctx, args): Promise<number> => {
    if (!(args.amount > 0)) {
      throw new Error("amount must be greater than 0");
    }
    const item = await ctx.runQuery(internal.inventory.getBySku, { sku: args.sku });
    if (item === null) {
      throw new Error(`Unknown SKU: ${args.sku}`);
    }
    const quantity = item.quantity + args.amount;
    await ctx.runMutation(internal.inventory.setQuantity, { itemId: item._id, quantity });
    return quantity;
  },
});

export const getQuantity = query({
  args: { sku: v.string() },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const item = await ctx.db
      .query("items")
      .withIndex("by_sku", (q) => q.eq("sku", args.sku))
      .unique();
    return item === null ? null : item.quantity;
  },
});
