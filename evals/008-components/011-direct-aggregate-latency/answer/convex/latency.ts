import { DirectAggregate } from "@convex-dev/aggregate";
import { v } from "convex/values";
import { components } from "./_generated/api";
import { mutation, query } from "./_generated/server";

const latencies = new DirectAggregate<{ Key: number; Id: string }>(components.latencies);

export const record = mutation({
  args: { requestId: v.string(), latencyMs: v.number() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await latencies.insert(ctx, { key: args.latencyMs, id: args.requestId, sumValue: args.latencyMs });
    return null;
  },
});

export const summary = query({
  args: {},
  returns: v.object({ count: v.number(), averageMs: v.union(v.number(), v.null()) }),
  handler: async (ctx) => {
    const count = await latencies.count(ctx);
    if (count === 0) {
      return { count, averageMs: null };
    }
    const total = await latencies.sum(ctx);
    return { count, averageMs: total / count };
  },
});

export const countSlowerThan = query({
  args: { thresholdMs: v.number() },
  returns: v.number(),
  handler: async (ctx, args) => {
    return await latencies.count(ctx, {
      bounds: { lower: { key: args.thresholdMs, inclusive: false } },
    });
  },
});

export const percentile = query({
  args: { p: v.number() },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const count = await latencies.count(ctx);
    if (count === 0) {
      return null;
    }
    const item = await latencies.at(ctx, Math.floor((args.p / 100) * (count - 1)));
    return item.key;
  },
});
