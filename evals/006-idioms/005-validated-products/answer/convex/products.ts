import { ConvexError, v } from "convex/values";
import { mutation, query } from "./_generated/server";

const category = v.union(v.literal("book"), v.literal("game"), v.literal("music"));

function invalid(message: string): never {
  throw new ConvexError({ code: "INVALID_ARGUMENT", message });
}

function checkDiscount(discountPercent: number) {
  if (!(discountPercent >= 0 && discountPercent <= 90)) {
    invalid("discountPercent must be between 0 and 90");
  }
}

export const addProduct = mutation({
  args: {
    name: v.string(),
    priceCents: v.number(),
    category,
    tags: v.array(v.string()),
    discountPercent: v.optional(v.number()),
  },
  returns: v.id("products"),
  handler: async (ctx, args) => {
    const name = args.name.trim();
    if (name.length === 0) {
      invalid("name must not be empty");
    }
    if (!Number.isInteger(args.priceCents) || args.priceCents < 0) {
      invalid("priceCents must be a non-negative integer");
    }
    if (args.discountPercent !== undefined) {
      checkDiscount(args.discountPercent);
    }
    return await ctx.db.insert("products", {
      name,
      priceCents: args.priceCents,
      category: args.category,
      tags: args.tags,
      discountPercent: args.discountPercent,
    });
  },
});

export const setDiscount = mutation({
  args: { productId: v.id("products"), discountPercent: v.union(v.number(), v.null()) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const product = await ctx.db.get("products", args.productId);
    if (product === null) {
      throw new ConvexError({ code: "NOT_FOUND", message: "Product not found" });
    }
    if (args.discountPercent !== null) {
      checkDiscount(args.discountPercent);
    }
    await ctx.db.patch("products", args.productId, {
      discountPercent: args.discountPercent ?? undefined,
    });
    return null;
  },
});

export const listByCategory = query({
  args: { category },
  returns: v.array(
    v.object({ name: v.string(), priceCents: v.number(), finalPriceCents: v.number() }),
  ),
  handler: async (ctx, args) => {
    const products = await ctx.db
      .query("products")
      .withIndex("by_category", (q) => q.eq("category", args.category))
      .collect();
    return products.map((p) => ({
      name: p.name,
      priceCents: p.priceCents,
      finalPriceCents: Math.round((p.priceCents * (100 - (p.discountPercent ?? 0))) / 100),
    }));
  },
});

export const findByName = query({
  args: { name: v.string() },
  returns: v.union(v.id("products"), v.null()),
  handler: async (ctx, args) => {
    for await (const product of ctx.db.query("products")) {
      if (product.name === args.name) {
        return product._id;
      }
    }
    return null;
  },
});
