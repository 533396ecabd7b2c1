import { httpRouter } from "convex/server";
import { httpAction } from "./_generated/server";
import { internal } from "./_generated/api";

const jsonHeaders = { "Content-Type": "application/json" };

const getProduct = httpAction(async (ctx, request) => {
  const parts = new URL(request.url).pathname.split("/");
  const sku = parts[parts.length - 1] ?? "";
  const product = sku ? await ctx.runQuery(internal.products.getBySku, { sku }) : null;
  if (!product) {
    return new Response(JSON.stringify({ error: "not found" }), { status: 404, headers: jsonHeaders });
  }
  return new Response(JSON.stringify(product), { status: 200, headers: jsonHeaders });
});

const http = httpRouter();
http.route({ pathPrefix: "/products/", method: "GET", handler: getProduct });
export default http;
