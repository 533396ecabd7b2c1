import { TableAggregate } from "@convex-dev/aggregate";
import { ConvexError, v } from "convex/values";
import { components } from "./_generated/api";
import type { DataModel } from "./_generated/dataModel";
import { mutation, query } from "./_generated/server";

const totals = new TableAggregate<{
  Namespace: string;
  Key: number;
  DataModel: DataModel;
  TableName: "purchases";
}>(components.purchaseTotals, {
  namespace: (doc) => doc.customer,
  sortKey: (doc) => doc._creationTime,
  sumValue: (doc) => doc.amount,
});

export const addPurchase = mutation({
  args: { customer: v.string(), amount: v.number() },
  returns: v.id("purchases"),
  handler: async (ctx, args) => {
    const id = await ctx.db.insert("purchases", { customer: args.customer, amount: args.amount });
    const doc = await ctx.db.get("purchases", id);
    await totals.insert(ctx, doc!);
    return id;
  },
});

export const changeAmount = mutation({
  args: { purchaseId: v.id("purchases"), amount: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const oldDoc = await ctx.db.get("purchases", args.purchaseId);
    if (oldDoc === null) {
      throw new ConvexError("Purchase not found");
    }
    await ctx.db.patch("purchases", args.purchaseId, { amount: args.amount });
    const newDoc = await ctx.db.get("purchases", args.purchaseId);
    await totals.replace(ctx, oldDoc, newDoc!);
    return null;
  },
});

export const deletePurchase = mutation({
  args: { purchaseId: v.id("purchases") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const doc = await ctx.db.get("purchases", args.purchaseId);
    if (doc === null) {
      throw new ConvexError("Purchase not found");
    }
    await ctx.db.delete("purchases", args.purchaseId);
    await totals.delete(ctx, doc);
    return null;
  },
});

export const customerTotals = query({
  args: { customer: v.string() },
  returns: v.object({ count: v.number(), total: v.number() }),
  handler: async (ctx, args) => {
    const count = await totals.count(ctx, { namespace: args.customer });
    const total = await totals.sum(ctx, { namespace: args.customer });
    return { count, total };
  },
});
