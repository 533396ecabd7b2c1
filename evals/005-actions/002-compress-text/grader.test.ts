import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import { gunzipSync } from "node:zlib";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

const TEXT = "Convex ".repeat(200) + "héllo ✓";

test("compress stores base64 gzip of the text and its length", async () => {
  const t = convexTest(schema, modules);
  const id = await t.action(api.compression.compress, { text: TEXT });
  const doc = await t.run(async (ctx) => await ctx.db.get("archives", id));
  expect(doc).not.toBeNull();
  expect(doc!.originalLength).toBe(TEXT.length);
  const bytes = Buffer.from(doc!.compressed, "base64");
  expect(bytes[0]).toBe(0x1f); // gzip magic number
  expect(bytes[1]).toBe(0x8b);
  expect(gunzipSync(bytes).toString("utf8")).toBe(TEXT);
  expect(doc!.compressed.length).toBeLessThan(TEXT.length); // repetitive text compresses
});

test("decompress round-trips the original text", async () => {
  const t = convexTest(schema, modules);
  const id = await t.action(api.compression.compress, { text: TEXT });
  expect(await t.action(api.compression.decompress, { id })).toBe(TEXT);
  const id2 = await t.action(api.compression.compress, { text: "" });
  expect(await t.action(api.compression.decompress, { id: id2 })).toBe("");
});

test("decompress returns null for a deleted row", async () => {
  const t = convexTest(schema, modules);
  const id = await t.action(api.compression.compress, { text: "gone" });
  await t.run(async (ctx) => await ctx.db.delete("archives", id));
  expect(await t.action(api.compression.decompress, { id })).toBeNull();
});

test("internal insert and get work together", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(internal.archives.insert, { compressed: "abc", originalLength: 3 });
  expect(await t.query(internal.archives.get, { id })).toMatchObject({ _id: id, compressed: "abc", originalLength: 3 });
});
