import { httpRouter } from "convex/server";
import { httpAction } from "./_generated/server";
import { internal } from "./_generated/api";

const http = httpRouter();

const corsHeaders = { "Access-Control-Allow-Origin": "*" };

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, "Content-Type": "application/json" },
  });
}

http.route({
  path: "/feedback",
  method: "OPTIONS",
  handler: httpAction(async () => {
    return new Response(null, {
      status: 204,
      headers: {
        ...corsHeaders,
        "Access-Control-Allow-Methods": "POST, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type",
        "Access-Control-Max-Age": "86400",
      },
    });
  }),
});

http.route({
  path: "/feedback",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    let payload: unknown;
    try {
      payload = await request.json();
    } catch {
      return json({ error: "Body must be valid JSON" }, 400);
    }
    const { email, message } = (payload ?? {}) as { email?: unknown; message?: unknown };
    if (typeof email !== "string" || email === "" || typeof message !== "string" || message === "") {
      return json({ error: "Fields 'email' and 'message' must be non-empty strings" }, 400);
    }
    await ctx.runMutation(internal.feedback.submit, { email, message });
    return json({ ok: true }, 201);
  }),
});

http.route({
  path: "/feedback/count",
  method: "GET",
  handler: httpAction(async (ctx) => {
    const count = await ctx.runQuery(internal.feedback.count, {});
    return json({ count }, 200);
  }),
});

export default http;
