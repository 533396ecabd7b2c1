import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const sync = mutation({
  args: {
    externalId: v.string(),
    email: v.string(),
    name: v.string(),
    phone: v.optional(v.string()),
  },
  returns: v.object({
    id: v.id("customers"),
    created: v.boolean(),
  }),
  handler: async (ctx, args) => {
    if (!args.email.includes("@")) {
      throw new ConvexError({ code: "INVALID_EMAIL" });
    }
    const existing = await ctx.db
      .query("customers")
      .withIndex("by_external_id", (q) => q.eq("externalId", args.externalId))
      .unique();
    if (existing !== null) {
      const changes: { email: string; name: string; phone?: string } = { email: args.email, name: args.name };
      if (args.phone !== undefined) {
        changes.phone = args.phone;
      }
      await ctx.db.patch("customers", existing._id, changes);
      return { id: existing._id, created: false };
    }
    const id = await ctx.db.insert("customers", {
      externalId: args.externalId,
      email: args.email,
      name: args.name,
      ...(args.phone === undefined ? {} : { phone: args.phone }),
    });
    return { id, created: true };
  },
});

export const clearPhone = mutation({
  args: {
    externalId: v.string(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const customer = await ctx.db
      .query("customers")
      .withIndex("by_external_id", (q) => q.eq("externalId", args.externalId))
      .unique();
    if (customer === null) {
      throw new ConvexError({ code: "NOT_FOUND" });
    }
    await ctx.db.patch("customers", customer._id, { phone: undefined });
    return null;
  },
});

export const get = query({
  args: {
    externalId: v.string(),
  },
  returns: v.union(
    v.object({
      _id: v.id("customers"),
      _creationTime: v.number(),
      externalId: v.string(),
      email: v.string(),
      name: v.string(),
      phone: v.optional(v.string()),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("customers")
      .withIndex("by_external_id", (q) => q.eq("externalId", args.externalId))
      .unique();
  },
});
