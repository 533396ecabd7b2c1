import { v } from "convex/values";
import { internalAction, internalMutation, query } from "./_generated/server";
import { internal } from "./_generated/api";

const MAX_ATTEMPTS = 3;

export const sync = internalAction({
  args: { attempt: v.number() },
  returns: v.union(v.literal("saved"), v.literal("retrying"), v.literal("failed")),
  handler: async (ctx, { attempt }): Promise<"saved" | "retrying" | "failed"> => {
    let rates: { currency: string; rate: number }[];
    try {
      const response = await fetch("https://rates.example.com/latest");
      if (!response.ok) {
        throw new Error(`rates API answered ${response.status}`);
      }
      const body = (await response.json()) as { rates: Record<string, number> };
      rates = Object.keys(body.rates).map((currency) => ({ currency, rate: body.rates[currency] }));
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS) {
        await ctx.runMutation(internal.rates.recordFailure, {
          attempts: attempt,
          reason: error instanceof Error ? error.message : String(error),
        });
        return "failed";
      }
      await ctx.scheduler.runAfter(attempt * 60_000, internal.rates.sync, { attempt: attempt + 1 });
      return "retrying";
    }
    await ctx.runMutation(internal.rates.saveRates, { rates });
    return "saved";
  },
});

export const saveRates = internalMutation({
  args: { rates: v.array(v.object({ currency: v.string(), rate: v.number() })) },
  returns: v.null(),
  handler: async (ctx, args) => {
    const updatedAt = Date.now();
    await Promise.all(
      args.rates.map(async ({ currency, rate }) => {
        const row = await ctx.db
          .query("rates")
          .withIndex("by_currency", (q) => q.eq("currency", currency))
          .first();
        if (row) {
          await ctx.db.patch("rates", row._id, { rate, updatedAt });
        } else {
          await ctx.db.insert("rates", { currency, rate, updatedAt });
        }
      }),
    );
    return null;
  },
});

export const recordFailure = internalMutation({
  args: { attempts: v.number(), reason: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.insert("syncFailures", args);
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
      .first();
    return row?.rate ?? null;
  },
});
