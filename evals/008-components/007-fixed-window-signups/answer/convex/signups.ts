import { HOUR, RateLimiter } from "@convex-dev/rate-limiter";
import { v } from "convex/values";
import { components } from "./_generated/api";
import { mutation, query } from "./_generated/server";

const rateLimiter = new RateLimiter(components.rateLimiter, {
  freeTrialSignUp: { kind: "fixed window", rate: 2, period: HOUR },
});

export const signUp = mutation({
  args: { email: v.string() },
  returns: v.id("signups"),
  handler: async (ctx, args) => {
    await rateLimiter.limit(ctx, "freeTrialSignUp", { throws: true });
    return await ctx.db.insert("signups", { email: args.email });
  },
});

export const canSignUp = query({
  args: {},
  returns: v.object({ ok: v.boolean(), retryAfter: v.union(v.number(), v.null()) }),
  handler: async (ctx) => {
    const status = await rateLimiter.check(ctx, "freeTrialSignUp");
    return status.ok ? { ok: true, retryAfter: null } : { ok: false, retryAfter: status.retryAfter };
  },
});
