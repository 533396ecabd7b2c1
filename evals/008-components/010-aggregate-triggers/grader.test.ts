import { convexTest } from "convex-test";
import aggregateTest from "@convex-dev/aggregate/test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

function setup() {
  const t = convexTest(schema, modules);
  aggregateTest.register(t, "todoStats");
  return t;
}

test("listStats counts a list's todos and the done ones", async () => {
  const t = setup();
  const home = await t.mutation(api.todos.createList, { name: "home" });
  const work = await t.mutation(api.todos.createList, { name: "work" });
  expect(await t.query(api.todos.listStats, { listId: home })).toEqual({ total: 0, done: 0 });
  const a = await t.mutation(api.todos.addTodo, { listId: home, text: "dishes" });
  await t.mutation(api.todos.addTodo, { listId: home, text: "laundry" });
  await t.mutation(api.todos.addTodo, { listId: work, text: "report" });
  expect(await t.query(api.todos.listStats, { listId: home })).toEqual({ total: 2, done: 0 });
  expect(await t.mutation(api.todos.setDone, { todoId: a, done: true })).toBeNull();
  expect(await t.query(api.todos.listStats, { listId: home })).toEqual({ total: 2, done: 1 });
  expect(await t.query(api.todos.listStats, { listId: work })).toEqual({ total: 1, done: 0 });
});

test("addTodo stores a todo that is not done", async () => {
  const t = setup();
  const home = await t.mutation(api.todos.createList, { name: "home" });
  const id = await t.mutation(api.todos.addTodo, { listId: home, text: "dishes" });
  expect(await t.run(async (ctx) => await ctx.db.get("todos", id))).toMatchObject({
    listId: home, text: "dishes", done: false,
  });
});

test("undoing and deleting todos keeps the stats right", async () => {
  const t = setup();
  const home = await t.mutation(api.todos.createList, { name: "home" });
  const a = await t.mutation(api.todos.addTodo, { listId: home, text: "a" });
  const b = await t.mutation(api.todos.addTodo, { listId: home, text: "b" });
  await t.mutation(api.todos.setDone, { todoId: a, done: true });
  await t.mutation(api.todos.setDone, { todoId: b, done: true });
  await t.mutation(api.todos.setDone, { todoId: a, done: false });
  expect(await t.query(api.todos.listStats, { listId: home })).toEqual({ total: 2, done: 1 });
  expect(await t.mutation(api.todos.deleteTodo, { todoId: b })).toBeNull();
  expect(await t.query(api.todos.listStats, { listId: home })).toEqual({ total: 1, done: 0 });
  expect(await t.run(async (ctx) => await ctx.db.get("todos", b))).toBeNull();
  await expect(t.mutation(api.todos.deleteTodo, { todoId: b })).rejects.toThrow();
  await expect(t.mutation(api.todos.setDone, { todoId: b, done: true })).rejects.toThrow();
});

test("listStats reads the aggregate, not the table", async () => {
  const t = setup();
  const home = await t.mutation(api.todos.createList, { name: "home" });
  await t.mutation(api.todos.addTodo, { listId: home, text: "a" });
  await t.run(async (ctx) => {
    await ctx.db.insert("todos", { listId: home, text: "sneaky", done: true });
  });
  expect(await t.query(api.todos.listStats, { listId: home })).toEqual({ total: 1, done: 0 });
});
