import { convexTest } from "convex-test";
import { beforeEach, expect, test, vi } from "vitest";
import { getFunctionName } from "convex/server";
import type { OptimisticLocalStore } from "convex/browser";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { Id } from "./convex/_generated/dataModel";
import { addTodoLocally, toggleTodoLocally, useAddTodo, useToggleTodo } from "./src/todos";
const modules = import.meta.glob("./convex/**/*.*s");

const mocks = vi.hoisted(() => ({ useMutation: vi.fn() }));
vi.mock("convex/react", () => ({ useMutation: mocks.useMutation }));

beforeEach(() => {
  mocks.useMutation.mockReset();
});

type Row = { _id: string; text: string; done: boolean };

// A local store holding one cached result for todos:list with {} (or nothing when undefined).
function fakeStore(initial: Row[] | undefined) {
  const reads: { name: string; args: unknown }[] = [];
  const writes: { name: string; args: unknown; value: Row[] }[] = [];
  const store = {
    getQuery: (ref: any, args: any = {}) => {
      reads.push({ name: getFunctionName(ref), args });
      return getFunctionName(ref) === "todos:list" ? initial : undefined;
    },
    setQuery: (ref: any, args: any, value: any) => {
      writes.push({ name: getFunctionName(ref), args, value });
    },
    getAllQueries: () => [],
  };
  return { store: store as unknown as OptimisticLocalStore, reads, writes };
}

function frozenRows(): Row[] {
  return Object.freeze([
    Object.freeze({ _id: "t1", text: "one", done: false }),
    Object.freeze({ _id: "t2", text: "two", done: true }),
  ]) as Row[];
}

test("backend: add, list, toggle", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.todos.add, { text: "a" });
  const b = await t.mutation(api.todos.add, { text: "b" });
  expect(await t.query(api.todos.list, {})).toEqual([
    { _id: a, text: "a", done: false },
    { _id: b, text: "b", done: false },
  ]);
  expect(await t.mutation(api.todos.toggle, { id: b })).toBeNull();
  expect((await t.query(api.todos.list, {}))[1]).toEqual({ _id: b, text: "b", done: true });
  await t.mutation(api.todos.toggle, { id: b });
  expect((await t.query(api.todos.list, {}))[1].done).toBe(false);
  await t.run(async (ctx) => await ctx.db.delete("todos", a));
  await expect(t.mutation(api.todos.toggle, { id: a })).rejects.toThrow();
});

test("addTodoLocally appends a temporary item to a new array", () => {
  const rows = frozenRows();
  const { store, reads, writes } = fakeStore(rows);
  addTodoLocally(store, { text: "three" });
  expect(reads).toContainEqual({ name: "todos:list", args: {} });
  expect(writes).toHaveLength(1);
  expect(writes[0].name).toBe("todos:list");
  expect(writes[0].args).toEqual({});
  const value = writes[0].value;
  expect(value).not.toBe(rows);
  expect(value).toHaveLength(3);
  expect(value.slice(0, 2)).toEqual([
    { _id: "t1", text: "one", done: false },
    { _id: "t2", text: "two", done: true },
  ]);
  expect(value[2]).toMatchObject({ text: "three", done: false });
  expect(typeof value[2]._id).toBe("string");
});

test("toggleTodoLocally flips one item in a new array", () => {
  const rows = frozenRows();
  const { store, writes } = fakeStore(rows);
  toggleTodoLocally(store, { id: "t1" as Id<"todos"> });
  expect(writes).toHaveLength(1);
  expect(writes[0].name).toBe("todos:list");
  expect(writes[0].args).toEqual({});
  expect(writes[0].value).not.toBe(rows);
  expect(writes[0].value).toEqual([
    { _id: "t1", text: "one", done: true },
    { _id: "t2", text: "two", done: true },
  ]);
  expect(rows[0].done).toBe(false);
});

test("optimistic updates do nothing while the list is not loaded", () => {
  const { store, writes } = fakeStore(undefined);
  addTodoLocally(store, { text: "x" });
  toggleTodoLocally(store, { id: "t1" as Id<"todos"> });
  expect(writes).toEqual([]);
});

test("useAddTodo and useToggleTodo attach the optimistic updates", () => {
  for (const [hook, name, update] of [
    [useAddTodo, "todos:add", addTodoLocally],
    [useToggleTodo, "todos:toggle", toggleTodoLocally],
  ] as const) {
    mocks.useMutation.mockReset();
    const withUpdate = vi.fn();
    const mutate = Object.assign(vi.fn(), { withOptimisticUpdate: vi.fn(() => withUpdate) });
    mocks.useMutation.mockReturnValue(mutate);
    expect(hook()).toBe(withUpdate);
    expect(mocks.useMutation).toHaveBeenCalledTimes(1);
    expect(getFunctionName(mocks.useMutation.mock.calls[0][0])).toBe(name);
    expect(mutate.withOptimisticUpdate).toHaveBeenCalledTimes(1);
    expect(mutate.withOptimisticUpdate.mock.calls[0]).toEqual([update]);
  }
});
