import { ShardedCounter } from "@convex-dev/sharded-counter";
import { ConvexError, v } from "convex/values";
import { components } from "./_generated/api";
import { mutation, query } from "./_generated/server";

const counter = new ShardedCounter(components.shardedCounter, { defaultShards: 8 });

export const createPage = mutation({
  args: { slug: v.string() },
  returns: v.id("pages"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("pages", { slug: args.slug });
  },
});

export const recordView = mutation({
  args: { pageId: v.id("pages") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const page = await ctx.db.get("pages", args.pageId);
    if (page === null) {
      throw new ConvexError("Page not found");
    }
    await counter.inc(ctx, args.pageId);
    await counter.inc(ctx, "total");
    return null;
  },
});

export const viewCount = query({
  args: { pageId: v.id("pages") },
  returns: v.number(),
  handler: async (ctx, args) => {
    return await counter.count(ctx, args.pageId);
  },
});

export const totalViews = query({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    return await counter.count(ctx, "total");
  },
});

export const resetPage = mutation({
  args: { pageId: v.id("pages") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const views = await counter.count(ctx, args.pageId);
    await counter.reset(ctx, args.pageId);
    await counter.subtract(ctx, "total", views);
    return null;
  },
});
