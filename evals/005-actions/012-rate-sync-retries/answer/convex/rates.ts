import { v } from "convex/values";
import { internalAction, internalMutation, query } from "./_generated/server";
import type { ActionCtx } from "./_generated/server";
import { internal } from "./_generated/api";

const RATES_URL = "https://rates.example.com/latest";
const MAX_ATTEMPTS = 3;

type SyncOutcome = "saved" | "retrying" | "failed";

async function retryOrGiveUp(ctx: ActionCtx, attempt: number, reason: string): Promise<SyncOutcome> {
  if (attempt < MAX_ATTEMPTS) {
    await ctx.scheduler.runAfter(attempt * 60_000, internal.rates.sync, { attempt: attempt + 1 });
    return "retrying";
  }
  await ctx.runMutation(internal.rates.recordFailure, { attempts: attempt, reason });
  return "failed";
}

export const sync = internalAction({
  args: { attempt: v.number() },
  returns: v.union(v.literal("saved"), v.literal("retrying"), v.literal("failed")),
  handler: async (ctx, args) => {
    let response: Response;
    try {
      response = await fetch(RATES_URL);
    } catch (error) {
      return await retryOrGiveUp(ctx, args.attempt, `network error: ${String(error)}`);
    }
    if (!response.ok) {
      return await retryOrGiveUp(ctx, args.attempt, `HTTP ${response.status}`);
    }
    const body = (await response.json()) as { rates: Record<string, number> };
    const rates = Object.entries(body.rates).map(([currency, rate]) => ({ currency, rate }));
    await ctx.runMutation(internal.rates.saveRates, { rates });
    return "saved" as const;
  },
});

export const saveRates = internalMutation({
  args: { rates: v.array(v.object({ currency: v.string(), rate: v.number() })) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const now = Date.now();
    for (const { currency, rate } of args.rates) {
      const existing = await ctx.db
        .query("rates")
        .withIndex("by_currency", (q) => q.eq("currency", currency))
        .unique();
      if (existing === null) {
        await ctx.db.insert("rates", { currency, rate, updatedAt: now });
      } else {
        await ctx.db.patch("rates", existing._id, { rate, updatedAt: now });
      }
    }
    return null;
  },
});

export const recordFailure = internalMutation({
  args: { attempts: v.number(), reason: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.insert("syncFailures", { attempts: args.attempts, reason: args.reason });
    return null;
  },
});

export const getRate = query({
  args: { currency: v.string() },
  returns: v.union(v.number(), v.null()),
  handler: async (ctx, args) => {
    const row = await ctx.db
      .query("rates")
      .withIndex("by_currency", (q) => q.eq("currency", args.currency))
      .unique();
    return row === null ? null : row.rate;
  },
});
