import { MINUTE, RateLimiter } from "@convex-dev/rate-limiter";
import { httpRouter } from "convex/server";
import { components, internal } from "./_generated/api";
import { httpAction } from "./_generated/server";

const rateLimiter = new RateLimiter(components.rateLimiter, {
  apiRequest: { kind: "token bucket", rate: 2, period: MINUTE, capacity: 2 },
});

const http = httpRouter();

http.route({
  path: "/api/ping",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const apiKey = request.headers.get("X-Api-Key");
    if (!apiKey) {
      return new Response("Missing API key", { status: 401 });
    }
    const status = await rateLimiter.limit(ctx, "apiRequest", { key: apiKey });
    if (!status.ok) {
      return new Response("Too many requests", {
        status: 429,
        headers: { "Retry-After": String(Math.ceil(status.retryAfter / 1000)) },
      });
    }
    await ctx.runMutation(internal.requests.logRequest, { apiKey });
    return Response.json({ ok: true });
  }),
});

export default http;
