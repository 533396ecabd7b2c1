import { mutation, query } from "./_generated/server";
import { v } from "convex/values";

export const add = mutation({
  args: {
    name: v.string(),
    category: v.string(),
    price: v.number(),
  },
  returns: v.id("products"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("products", {
      name: args.name,
      category: args.category,
      price: args.price,
    });
  },
});

export const cheapest = query({
  args: {
    category: v.string(),
  },
  returns: v.union(
    v.object({
      _id: v.id("products"),
      _creationTime: v.number(),
      name: v.string(),
      category: v.string(),
      price: v.number(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("products")
      .withIndex("by_category_and_price", (q) => q.eq("category", args.category))
      .first();
  },
});

export const inRange = query({
  args: {
    category: v.string(),
    min: v.number(),
    max: v.number(),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const products = await ctx.db
      .query("products")
      .withIndex("by_category_and_price", (q) =>
        q.eq("category", args.category).gte("price", args.min).lte("price", args.max),
      )
      .collect();
    return products.map((product) => product.name);
  },
});

export const priciest = query({
  args: {
    category: v.string(),
  },
  returns: v.array(
    v.object({
      name: v.string(),
      price: v.number(),
    }),
  ),
  handler: async (ctx, args) => {
    const products = await ctx.db
      .query("products")
      .withIndex("by_category_and_price", (q) => q.eq("category", args.category))
      .order("desc")
      .take(3);
    return products.map((product) => ({ name: product.name, price: product.price }));
  },
});
