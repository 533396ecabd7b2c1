import { mutation, query } from "./_generated/server";
import { v } from "convex/values";
import { item, orderFields, type Item } from "./validators";

function totalOf(items: Item[]): number {
  let total = 0;
  for (const { quantity, unitPrice } of items) {
    total += quantity * unitPrice;
  }
  return total;
}

export const place = mutation({
  args: { customer: v.string(), items: v.array(item) },
  returns: v.object({ orderId: v.id("orders"), total: v.number() }),
  handler: async (ctx, { customer, items }) => {
    if (items.length === 0 || items.some((i) => !(Number.isInteger(i.quantity) && i.quantity > 0))) {
      throw new Error("invalid order");
    }
    const total = totalOf(items);
    const orderId = await ctx.db.insert("orders", { customer, items, total });
    return { orderId, total };
  },
});

export const get = query({
  args: { orderId: v.id("orders") },
  returns: v.union(
    v.object({ _id: v.id("orders"), _creationTime: v.number(), ...orderFields }),
    v.null(),
  ),
  handler: async (ctx, { orderId }) => await ctx.db.get("orders", orderId),
});

export const skusFor = query({
  args: { customer: v.string() },
  returns: v.array(v.string()),
  handler: async (ctx, { customer }) => {
    const all = await ctx.db.query("orders").collect();
    const skus = all
      .filter((order) => order.customer === customer)
      .flatMap((order) => order.items.map((i) => i.sku));
    return Array.from(new Set(skus)).sort();
  },
});
