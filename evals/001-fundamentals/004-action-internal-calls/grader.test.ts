import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("importDocument inserts a new document with its word count", async () => {
  const t = convexTest(schema, modules);
  const result = await t.action(api.documents.importDocument, {
    title: "intro",
    body: "  hello   convex\nworld ",
  });
  expect(result.created).toBe(true);
  expect(await t.query(api.documents.get, { documentId: result.documentId })).toEqual({
    title: "intro",
    wordCount: 3,
  });
  const docs = await t.run(async (ctx) => await ctx.db.query("documents").collect());
  expect(docs).toHaveLength(1);
  expect(docs[0]).toMatchObject({ title: "intro", body: "  hello   convex\nworld ", wordCount: 3 });
});

test("an empty body has zero words", async () => {
  const t = convexTest(schema, modules);
  const result = await t.action(api.documents.importDocument, { title: "blank", body: "   " });
  expect(await t.query(api.documents.get, { documentId: result.documentId })).toEqual({
    title: "blank",
    wordCount: 0,
  });
});

test("importing an existing title returns the existing id and writes nothing", async () => {
  const t = convexTest(schema, modules);
  const first = await t.action(api.documents.importDocument, { title: "same", body: "one two" });
  const second = await t.action(api.documents.importDocument, { title: "same", body: "a b c d" });
  expect(second).toEqual({ documentId: first.documentId, created: false });
  const docs = await t.run(async (ctx) => await ctx.db.query("documents").collect());
  expect(docs).toHaveLength(1);
  expect(docs[0].wordCount).toBe(2);
});

test("the internal functions find and insert documents", async () => {
  const t = convexTest(schema, modules);
  expect(await t.query(internal.documents.findByTitle, { title: "x" })).toBeNull();
  const id = await t.mutation(internal.documents.insertDocument, {
    title: "x",
    body: "b",
    wordCount: 1,
  });
  expect(await t.query(internal.documents.findByTitle, { title: "x" })).toBe(id);
  expect(await t.query(internal.documents.findByTitle, { title: "y" })).toBeNull();
});

test("get returns null for a deleted document", async () => {
  const t = convexTest(schema, modules);
  const { documentId } = await t.action(api.documents.importDocument, { title: "gone", body: "x" });
  await t.run(async (ctx) => {
    await ctx.db.delete("documents", documentId);
  });
  expect(await t.query(api.documents.get, { documentId })).toBeNull();
});
