import { MINUTE, RateLimiter } from "@convex-dev/rate-limiter";
import { v } from "convex/values";
import { components } from "./_generated/api";
import { mutation, query } from "./_generated/server";

const rateLimiter = new RateLimiter(components.rateLimiter, {
  sendMessage: { kind: "token bucket", rate: 3, period: MINUTE, capacity: 3 },
});

export const send = mutation({
  args: { author: v.string(), body: v.string() },
  returns: v.union(
    v.object({ ok: v.literal(true), messageId: v.id("messages") }),
    v.object({ ok: v.literal(false), retryAfter: v.number() }),
  ),
  handler: async (ctx, args) => {
    const status = await rateLimiter.limit(ctx, "sendMessage", { key: args.author });
    if (!status.ok) {
      return { ok: false as const, retryAfter: status.retryAfter };
    }
    const messageId = await ctx.db.insert("messages", { author: args.author, body: args.body });
    return { ok: true as const, messageId };
  },
});

export const count = query({
  args: { author: v.string() },
  returns: v.number(),
  handler: async (ctx, args) => {
    const messages = await ctx.db
      .query("messages")
      .withIndex("by_author", (q) => q.eq("author", args.author))
      .collect();
    return messages.length;
  },
});
