import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { internal } from "./convex/_generated/api";
import { fetchPrices, fetchProduct } from "./src/catalog";
const modules = import.meta.glob("./convex/**/*.*s");

const SITE = "https://happy-otter-123.convex.site";

afterEach(() => {
  vi.unstubAllGlobals();
});

async function seeded() {
  const t = convexTest(schema, modules);
  await t.mutation(internal.products.add, { sku: "ABC-1", name: "Lamp", price: 25 });
  await t.mutation(internal.products.add, { sku: "XYZ-9", name: "Desk", price: 120 });
  return t;
}

// Routes the client's fetch calls to the in-memory backend's HTTP router, recording the URLs.
function routeFetchTo(t: ReturnType<typeof convexTest>) {
  const urls: string[] = [];
  const fake = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    urls.push(url.href);
    expect(url.origin).toBe(SITE);
    return await t.fetch(url.pathname + url.search, init);
  });
  vi.stubGlobal("fetch", fake);
  return urls;
}

test("GET /products/<sku> answers 200 with the product", async () => {
  const t = await seeded();
  const res = await t.fetch("/products/ABC-1", { method: "GET" });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(await res.json()).toEqual({ sku: "ABC-1", name: "Lamp", price: 25 });
});

test("GET /products/<unknown> answers 404 with an error", async () => {
  const t = await seeded();
  for (const path of ["/products/NOPE-0", "/products/"]) {
    const res = await t.fetch(path, { method: "GET" });
    expect(res.status, path).toBe(404);
    expect(res.headers.get("content-type"), path).toContain("application/json");
    const json = (await res.json()) as { error?: unknown };
    expect(typeof json.error, path).toBe("string");
  }
});

test("internal getBySku", async () => {
  const t = await seeded();
  expect(await t.query(internal.products.getBySku, { sku: "XYZ-9" })).toEqual({ sku: "XYZ-9", name: "Desk", price: 120 });
  expect(await t.query(internal.products.getBySku, { sku: "none" })).toBeNull();
});

test("fetchProduct reads a product through the HTTP endpoint", async () => {
  const t = await seeded();
  const urls = routeFetchTo(t);
  expect(await fetchProduct(SITE, "ABC-1")).toEqual({ sku: "ABC-1", name: "Lamp", price: 25 });
  expect(urls).toEqual([`${SITE}/products/ABC-1`]);
  expect(await fetchProduct(SITE, "NOPE-0")).toBeNull();
});

test("fetchProduct throws on other statuses", async () => {
  vi.stubGlobal("fetch", vi.fn(async () => new Response("boom", { status: 500 })));
  await expect(fetchProduct(SITE, "ABC-1")).rejects.toThrow();
});

test("fetchPrices maps existing SKUs to prices", async () => {
  const t = await seeded();
  routeFetchTo(t);
  expect(await fetchPrices(SITE, ["XYZ-9", "NOPE-0", "ABC-1"])).toEqual({ "XYZ-9": 120, "ABC-1": 25 });
  expect(await fetchPrices(SITE, [])).toEqual({});
});
