import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

const ORIGIN = { Origin: "https://shop.example.com" };

function post(t: ReturnType<typeof convexTest>, body: string) {
  return t.fetch("/feedback", {
    method: "POST",
    headers: { ...ORIGIN, "Content-Type": "application/json" },
    body,
  });
}

test("OPTIONS /feedback answers the CORS preflight", async () => {
  const t = convexTest(schema, modules);
  const res = await t.fetch("/feedback", {
    method: "OPTIONS",
    headers: { ...ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "Content-Type" },
  });
  expect(res.status).toBe(204);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  const methods = (res.headers.get("access-control-allow-methods") ?? "").toUpperCase();
  expect(methods).toContain("POST");
  expect(methods).toContain("OPTIONS");
  expect((res.headers.get("access-control-allow-headers") ?? "").toLowerCase()).toContain("content-type");
  expect(res.headers.get("access-control-max-age")).toBe("86400");
  expect(await res.text()).toBe("");
});

test("POST /feedback stores valid feedback and answers 201 with CORS headers", async () => {
  const t = convexTest(schema, modules);
  const res = await post(t, JSON.stringify({ email: "a@example.com", message: "great" }));
  expect(res.status).toBe(201);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(await res.json()).toEqual({ ok: true });
  const docs = await t.run(async (ctx) => await ctx.db.query("feedback").collect());
  expect(docs).toHaveLength(1);
  expect(docs[0]).toMatchObject({ email: "a@example.com", message: "great" });
});

test("POST /feedback rejects invalid bodies with 400, CORS headers, and stores nothing", async () => {
  const t = convexTest(schema, modules);
  const bad = [
    "not json",
    "null",
    JSON.stringify({ email: "a@example.com" }),
    JSON.stringify({ email: "a@example.com", message: "" }),
    JSON.stringify({ email: "", message: "hi" }),
    JSON.stringify({ email: 7, message: "hi" }),
  ];
  for (const body of bad) {
    const res = await post(t, body);
    expect(res.status, body).toBe(400);
    expect(res.headers.get("access-control-allow-origin"), body).toBe("*");
    expect(res.headers.get("content-type"), body).toContain("application/json");
    const json = (await res.json()) as { error?: unknown };
    expect(typeof json.error, body).toBe("string");
  }
  expect(await t.run(async (ctx) => await ctx.db.query("feedback").collect())).toHaveLength(0);
});

test("GET /feedback/count counts stored feedback", async () => {
  const t = convexTest(schema, modules);
  let res = await t.fetch("/feedback/count", { method: "GET", headers: ORIGIN });
  expect(res.status).toBe(200);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(await res.json()).toEqual({ count: 0 });
  await post(t, JSON.stringify({ email: "a@example.com", message: "one" }));
  await post(t, JSON.stringify({ email: "b@example.com", message: "two" }));
  res = await t.fetch("/feedback/count", { method: "GET", headers: ORIGIN });
  expect(await res.json()).toEqual({ count: 2 });
});

test("internal submit and count", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(internal.feedback.submit, { email: "x@example.com", message: "y" });
  expect(await t.query(internal.feedback.count, {})).toBe(1);
});
