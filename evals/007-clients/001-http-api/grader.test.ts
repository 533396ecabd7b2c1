import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { internal } from "./convex/_generated/api";
import type { Id } from "./convex/_generated/dataModel";
const modules = import.meta.glob("./convex/**/*.*s");

function post(t: ReturnType<typeof convexTest>, body: string) {
  return t.fetch("/messages", { method: "POST", headers: { "Content-Type": "application/json" }, body });
}

test("POST /messages stores the message and answers 201 with its id", async () => {
  const t = convexTest(schema, modules);
  const res = await post(t, JSON.stringify({ author: "ada", body: "hello" }));
  expect(res.status).toBe(201);
  expect(res.headers.get("content-type")).toContain("application/json");
  const json = (await res.json()) as { id: Id<"messages"> };
  const doc = await t.run(async (ctx) => await ctx.db.get("messages", json.id));
  expect(doc).toMatchObject({ author: "ada", body: "hello" });
});

test("POST /messages answers 400 with an error for invalid input and stores nothing", async () => {
  const t = convexTest(schema, modules);
  for (const body of ["not json", JSON.stringify({ author: "ada" }), JSON.stringify({ author: 1, body: "x" }), "null"]) {
    const res = await post(t, body);
    expect(res.status, body).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/json");
    const json = (await res.json()) as { error?: unknown };
    expect(typeof json.error).toBe("string");
  }
  expect(await t.run(async (ctx) => await ctx.db.query("messages").collect())).toHaveLength(0);
});

test("GET /messages returns all messages oldest first", async () => {
  const t = convexTest(schema, modules);
  let res = await t.fetch("/messages", { method: "GET" });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual([]);
  await post(t, JSON.stringify({ author: "ada", body: "one" }));
  await post(t, JSON.stringify({ author: "bob", body: "two" }));
  res = await t.fetch("/messages", { method: "GET" });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(await res.json()).toEqual([
    { author: "ada", body: "one" },
    { author: "bob", body: "two" },
  ]);
});

test("internal insert and list", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(internal.messages.insert, { author: "x", body: "y" });
  expect(await t.query(internal.messages.list, {})).toEqual([{ author: "x", body: "y" }]);
});
