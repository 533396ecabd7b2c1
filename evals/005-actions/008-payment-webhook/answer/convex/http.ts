import { httpRouter } from "convex/server";
import { httpAction } from "./_generated/server";
import { internal } from "./_generated/api";

const http = httpRouter();

const EVENT_STATUS = {
  "payment.succeeded": "paid",
  "payment.refunded": "refunded",
} as const;

http.route({
  path: "/webhooks/payments",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    const secret = process.env.WEBHOOK_SECRET;
    if (!secret || request.headers.get("x-webhook-secret") !== secret) {
      return new Response("unauthorized", { status: 401 });
    }
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return new Response("invalid JSON", { status: 400 });
    }
    const event = body as { id?: unknown; amountCents?: unknown; type?: unknown } | null;
    if (
      event === null ||
      typeof event !== "object" ||
      typeof event.id !== "string" ||
      typeof event.amountCents !== "number" ||
      (event.type !== "payment.succeeded" && event.type !== "payment.refunded")
    ) {
      return new Response("invalid event", { status: 400 });
    }
    await ctx.runMutation(internal.payments.recordEvent, {
      externalId: event.id,
      amountCents: event.amountCents,
      status: EVENT_STATUS[event.type],
    });
    return new Response(JSON.stringify({ received: true }), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
  }),
});

export default http;
