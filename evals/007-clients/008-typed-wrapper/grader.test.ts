import { convexTest } from "convex-test";
import { expect, expectTypeOf, test } from "vitest";
import { getFunctionName } from "convex/server";
import type { ConvexHttpClient } from "convex/browser";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { Doc, Id } from "./convex/_generated/dataModel";
import { createNote, getNote, pinNote, pinnedNotes, unpinNote } from "./src/notesClient";
import type { NewNote, PinnedNote } from "./src/notesClient";
const modules = import.meta.glob("./convex/**/*.*s");

// A stand-in for ConvexHttpClient that records the references it is called with and forwards the
// calls to the in-memory backend (omitted arguments count as {}, as in the real client).
function fakeClient(t: ReturnType<typeof convexTest>) {
  const calls: { kind: string; name: string; args: unknown }[] = [];
  const client = {
    query: async (ref: any, args: any = {}) => {
      calls.push({ kind: "query", name: getFunctionName(ref), args });
      return await t.query(ref, args);
    },
    mutation: async (ref: any, args: any = {}) => {
      calls.push({ kind: "mutation", name: getFunctionName(ref), args });
      return await t.mutation(ref, args);
    },
    action: async () => {
      throw new Error("no actions expected");
    },
  };
  return { client: client as unknown as ConvexHttpClient, calls };
}

test("types are derived from the backend (checked by tsc)", () => {
  expectTypeOf<NewNote>().toEqualTypeOf<{ title: string; body: string }>();
  expectTypeOf<PinnedNote>().toEqualTypeOf<{ _id: Id<"notes">; title: string }>();
  expectTypeOf(createNote).parameter(1).toEqualTypeOf<NewNote>();
  expectTypeOf(createNote).returns.toEqualTypeOf<Promise<Id<"notes">>>();
  expectTypeOf(pinnedNotes).returns.toEqualTypeOf<Promise<PinnedNote[]>>();
  expectTypeOf(getNote).returns.toEqualTypeOf<Promise<Doc<"notes"> | null>>();
  expectTypeOf(pinNote).returns.toEqualTypeOf<Promise<void>>();
});

test("backend: create, setPinned, listPinned, get", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.notes.create, { title: "a", body: "A" });
  const b = await t.mutation(api.notes.create, { title: "b", body: "B" });
  const c = await t.mutation(api.notes.create, { title: "c", body: "C" });
  expect(await t.query(api.notes.listPinned, {})).toEqual([]);
  expect(await t.mutation(api.notes.setPinned, { id: c, pinned: true })).toBeNull();
  await t.mutation(api.notes.setPinned, { id: a, pinned: true });
  expect(await t.query(api.notes.listPinned, {})).toEqual([
    { _id: a, title: "a" },
    { _id: c, title: "c" },
  ]);
  expect(await t.query(api.notes.get, { id: b })).toMatchObject({ _id: b, title: "b", body: "B", pinned: false });
  expect(await t.query(api.notes.get, { id: a })).toMatchObject({ title: "a", body: "A", pinned: true });
  await t.run(async (ctx) => await ctx.db.delete("notes", b));
  expect(await t.query(api.notes.get, { id: b })).toBeNull();
  await expect(t.mutation(api.notes.setPinned, { id: b, pinned: true })).rejects.toThrow();
});

test("client functions call the right references", async () => {
  const t = convexTest(schema, modules);
  const { client, calls } = fakeClient(t);
  const a = await createNote(client, { title: "a", body: "A" });
  const b = await createNote(client, { title: "b", body: "B" });
  expect(await pinNote(client, b)).toBeUndefined();
  await pinNote(client, a);
  expect(await pinnedNotes(client)).toEqual([
    { _id: a, title: "a" },
    { _id: b, title: "b" },
  ]);
  expect(await unpinNote(client, a)).toBeUndefined();
  expect(await pinnedNotes(client)).toEqual([{ _id: b, title: "b" }]);
  expect(await getNote(client, a)).toMatchObject({ _id: a, title: "a", body: "A", pinned: false });
  expect(calls).toEqual([
    { kind: "mutation", name: "notes:create", args: { title: "a", body: "A" } },
    { kind: "mutation", name: "notes:create", args: { title: "b", body: "B" } },
    { kind: "mutation", name: "notes:setPinned", args: { id: b, pinned: true } },
    { kind: "mutation", name: "notes:setPinned", args: { id: a, pinned: true } },
    { kind: "query", name: "notes:listPinned", args: {} },
    { kind: "mutation", name: "notes:setPinned", args: { id: a, pinned: false } },
    { kind: "query", name: "notes:listPinned", args: {} },
    { kind: "query", name: "notes:get", args: { id: a } },
  ]);
});

test("getNote resolves to null for a missing note", async () => {
  const t = convexTest(schema, modules);
  const { client } = fakeClient(t);
  const id = await createNote(client, { title: "x", body: "y" });
  await t.run(async (ctx) => await ctx.db.delete("notes", id));
  expect(await getNote(client, id)).toBeNull();
});
