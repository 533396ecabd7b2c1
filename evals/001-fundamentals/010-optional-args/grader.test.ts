import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("add defaults priority to normal and done to false", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.todos.add, { text: "a" });
  const b = await t.mutation(api.todos.add, { text: "b", priority: "high" });
  const docs = await t.run(async (ctx) => [
    await ctx.db.get("todos", a),
    await ctx.db.get("todos", b),
  ]);
  expect(docs[0]).toMatchObject({ text: "a", done: false, priority: "normal" });
  expect(docs[1]).toMatchObject({ text: "b", done: false, priority: "high" });
});

test("add rejects an unknown priority", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.todos.add, { text: "x", priority: "urgent" as unknown as "high" }),
  ).rejects.toThrow();
});

test("setDone defaults to true and accepts false", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.todos.add, { text: "t" });
  expect(await t.mutation(api.todos.setDone, { todoId: id })).toBeNull();
  expect((await t.run(async (ctx) => await ctx.db.get("todos", id)))?.done).toBe(true);
  await t.mutation(api.todos.setDone, { todoId: id, done: false });
  expect((await t.run(async (ctx) => await ctx.db.get("todos", id)))?.done).toBe(false);
});

test("setDone throws for a missing todo", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.todos.add, { text: "t" });
  await t.run(async (ctx) => {
    await ctx.db.delete("todos", id);
  });
  await expect(t.mutation(api.todos.setDone, { todoId: id })).rejects.toThrow();
});

test("list hides done todos by default and shows them on request", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.todos.add, { text: "one" });
  const two = await t.mutation(api.todos.add, { text: "two" });
  await t.mutation(api.todos.add, { text: "three" });
  await t.mutation(api.todos.setDone, { todoId: two });
  expect(await t.query(api.todos.list, {})).toEqual(["one", "three"]);
  expect(await t.query(api.todos.list, { includeDone: false })).toEqual(["one", "three"]);
  expect(await t.query(api.todos.list, { includeDone: true })).toEqual(["one", "two", "three"]);
});

test("list applies the limit, defaulting to 50", async () => {
  const t = convexTest(schema, modules);
  await t.run(async (ctx) => {
    for (let i = 0; i < 55; i++) {
      await ctx.db.insert("todos", { text: `t${i}`, done: false, priority: "low" });
    }
  });
  const all = await t.query(api.todos.list, {});
  expect(all).toHaveLength(50);
  expect(all[0]).toBe("t0");
  expect(await t.query(api.todos.list, { limit: 2 })).toEqual(["t0", "t1"]);
  expect(await t.query(api.todos.list, { includeDone: true, limit: 3 })).toEqual(["t0", "t1", "t2"]);
});
