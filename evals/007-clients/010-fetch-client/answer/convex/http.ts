import { httpRouter } from "convex/server";
import { httpAction } from "./_generated/server";
import { internal } from "./_generated/api";

const http = httpRouter();

http.route({
  pathPrefix: "/products/",
  method: "GET",
  handler: httpAction(async (ctx, request) => {
    const sku = new URL(request.url).pathname.slice("/products/".length);
    const product = sku === "" ? null : await ctx.runQuery(internal.products.getBySku, { sku });
    if (product === null) {
      return Response.json({ error: `No product with SKU '${sku}'` }, { status: 404 });
    }
    return Response.json(product, { status: 200 });
  }),
});

export default http;
