import { httpRouter } from "convex/server";
import { httpAction } from "./_generated/server";
import { internal } from "./_generated/api";

const http = httpRouter();

http.route({
  path: "/messages",
  method: "POST",
  handler: httpAction(async (ctx, request) => {
    let payload: unknown;
    try {
      payload = await request.json();
    } catch {
      return Response.json({ error: "Body must be valid JSON" }, { status: 400 });
    }
    const { author, body } = (payload ?? {}) as { author?: unknown; body?: unknown };
    if (typeof author !== "string" || typeof body !== "string") {
      return Response.json(
        { error: "Fields 'author' and 'body' must be strings" },
        { status: 400 },
      );
    }
    const id = await ctx.runMutation(internal.messages.insert, { author, body });
    return Response.json({ id }, { status: 201 });
  }),
});

http.route({
  path: "/messages",
  method: "GET",
  handler: httpAction(async (ctx) => {
    const messages = await ctx.runQuery(internal.messages.list, {});
    return Response.json(messages, { status: 200 });
  }),
});

export default http;
