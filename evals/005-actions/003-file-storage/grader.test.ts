import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

test("saveNote stores the body in file storage and records the note", async () => {
  const t = convexTest(schema, modules);
  const noteId = await t.action(api.notes.saveNote, { title: "Groceries", body: "milk\neggs" });
  const note = await t.run(async (ctx) => await ctx.db.get("notes", noteId));
  expect(note).toMatchObject({ title: "Groceries" });
  const text = await t.run(async (ctx) => (await ctx.storage.get(note!.storageId))?.text());
  expect(text).toBe("milk\neggs");
});

test("stored file has MIME type text/plain", async () => {
  const t = convexTest(schema, modules);
  const noteId = await t.action(api.notes.saveNote, { title: "T", body: "hello" });
  const type = await t.run(async (ctx) => {
    const note = await ctx.db.get("notes", noteId);
    return (await ctx.storage.get(note!.storageId))?.type;
  });
  expect(type).toBe("text/plain");
});

test("getNoteUrl returns a URL string, null for a missing file or note", async () => {
  const t = convexTest(schema, modules);
  const noteId = await t.action(api.notes.saveNote, { title: "T", body: "hello" });
  const url = await t.query(api.notes.getNoteUrl, { noteId });
  expect(typeof url).toBe("string");
  expect(url!.length).toBeGreaterThan(0);
  // delete the file: URL becomes null
  await t.run(async (ctx) => {
    const note = await ctx.db.get("notes", noteId);
    await ctx.storage.delete(note!.storageId);
  });
  expect(await t.query(api.notes.getNoteUrl, { noteId })).toBeNull();
  // delete the note: null
  await t.run(async (ctx) => await ctx.db.delete("notes", noteId));
  expect(await t.query(api.notes.getNoteUrl, { noteId })).toBeNull();
});

test("insertNote is an internal mutation", async () => {
  const t = convexTest(schema, modules);
  const storageId = await t.run(async (ctx) => await ctx.storage.store(new Blob(["x"])));
  const id = await t.mutation(internal.notes.insertNote, { title: "direct", storageId });
  expect(await t.run(async (ctx) => await ctx.db.get("notes", id))).toMatchObject({ title: "direct", storageId });
});
