import { isRateLimitError, MINUTE, RateLimiter } from "@convex-dev/rate-limiter";
import { v } from "convex/values";
import { components } from "./_generated/api";
import { mutation, query } from "./_generated/server";

const limiter = new RateLimiter(components.rateLimiter);
const sendMessageLimit = { kind: "token bucket", rate: 3, period: MINUTE, capacity: 3 } as const;

export const send = mutation({
  args: { author: v.string(), body: v.string() },
  returns: v.union(
    v.object({ ok: v.literal(true), messageId: v.id("messages") }),
    v.object({ ok: v.literal(false), retryAfter: v.number() }),
  ),
  handler: async (ctx, { author, body }) => {
    try {
      await limiter.limit(ctx, "sendMessage", { key: author, config: sendMessageLimit, throws: true });
    } catch (error) {
      if (isRateLimitError(error)) {
        return { ok: false as const, retryAfter: error.data.retryAfter };
      }
      throw error;
    }
    return { ok: true as const, messageId: await ctx.db.insert("messages", { author, body }) };
  },
});

export const count = query({
  args: { author: v.string() },
  returns: v.number(),
  handler: async (ctx, { author }) => {
    let n = 0;
    for await (const _message of ctx.db.query("messages").withIndex("by_author", (q) => q.eq("author", author))) {
      n++;
    }
    return n;
  },
});
