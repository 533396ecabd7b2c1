import { convexTest } from "convex-test";
import { expect, test, vi } from "vitest";
import { getFunctionName } from "convex/server";
import type { ConvexHttpClient } from "convex/browser";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { addTask, completeTask, createClient, openTaskTexts } from "./src/client";
const modules = import.meta.glob("./convex/**/*.*s");

vi.mock("convex/browser", () => ({
  ConvexHttpClient: class {
    constructor(public url: string) {}
  },
}));

// A stand-in for ConvexHttpClient that records the function references it is
// called with and forwards the calls to the in-memory backend.
function fakeClient(t: ReturnType<typeof convexTest>) {
  const calls: { kind: string; name: string; args: unknown }[] = [];
  const client = {
    query: async (ref: any, args: any) => {
      calls.push({ kind: "query", name: getFunctionName(ref), args });
      return await t.query(ref, args);
    },
    mutation: async (ref: any, args: any) => {
      calls.push({ kind: "mutation", name: getFunctionName(ref), args });
      return await t.mutation(ref, args);
    },
    action: async () => {
      throw new Error("no actions expected");
    },
  };
  return { client: client as unknown as ConvexHttpClient, calls };
}

test("backend: add, complete and listOpen", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.tasks.add, { text: "a" });
  const b = await t.mutation(api.tasks.add, { text: "b" });
  await t.mutation(api.tasks.add, { text: "c" });
  expect(await t.mutation(api.tasks.complete, { id: b })).toBeNull();
  expect((await t.query(api.tasks.listOpen, {})).map((x) => x.text)).toEqual(["a", "c"]);
  expect((await t.query(api.tasks.listOpen, {}))[0]._id).toBe(a);
  expect(await t.run(async (ctx) => await ctx.db.get("tasks", b))).toMatchObject({ text: "b", done: true });
  await t.run(async (ctx) => await ctx.db.delete("tasks", a));
  await expect(t.mutation(api.tasks.complete, { id: a })).rejects.toThrow();
});

test("addTask and openTaskTexts call api.tasks.add / api.tasks.listOpen", async () => {
  const t = convexTest(schema, modules);
  const { client, calls } = fakeClient(t);
  const id = await addTask(client, "write evals");
  await addTask(client, "ship");
  expect(await t.run(async (ctx) => await ctx.db.get("tasks", id))).toMatchObject({ text: "write evals", done: false });
  expect(await openTaskTexts(client)).toEqual(["write evals", "ship"]);
  expect(calls).toEqual([
    { kind: "mutation", name: "tasks:add", args: { text: "write evals" } },
    { kind: "mutation", name: "tasks:add", args: { text: "ship" } },
    { kind: "query", name: "tasks:listOpen", args: {} },
  ]);
});

test("completeTask calls api.tasks.complete and resolves to undefined", async () => {
  const t = convexTest(schema, modules);
  const { client, calls } = fakeClient(t);
  const id = await addTask(client, "x");
  await addTask(client, "y");
  expect(await completeTask(client, id)).toBeUndefined();
  expect(calls[2]).toEqual({ kind: "mutation", name: "tasks:complete", args: { id } });
  expect(await openTaskTexts(client)).toEqual(["y"]);
});

test("createClient constructs a ConvexHttpClient for the URL", () => {
  const client = createClient("https://happy-otter-123.convex.cloud") as unknown as { url: string };
  expect(client.url).toBe("https://happy-otter-123.convex.cloud");
});
