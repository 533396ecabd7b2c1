import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

// sha256("hello world") and sha256("") in lowercase hex
const HELLO = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";
const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

test("hashText returns the lowercase hex SHA-256 digest", async () => {
  const t = convexTest(schema, modules);
  expect(await t.action(api.hashing.hashText, { text: "hello world" })).toBe(HELLO);
  expect(await t.action(api.hashing.hashText, { text: "" })).toBe(EMPTY);
});

test("hashText saves text and hash in the hashes table", async () => {
  const t = convexTest(schema, modules);
  await t.action(api.hashing.hashText, { text: "hello world" });
  const rows = await t.run(async (ctx) => await ctx.db.query("hashes").collect());
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ text: "hello world", hash: HELLO });
});

test("getByHash finds saved text and returns null for unknown hashes", async () => {
  const t = convexTest(schema, modules);
  await t.action(api.hashing.hashText, { text: "hello world" });
  expect(await t.query(api.hashes.getByHash, { hash: HELLO })).toBe("hello world");
  expect(await t.query(api.hashes.getByHash, { hash: EMPTY })).toBeNull();
});

test("saveHash is an internal mutation that inserts a row", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(internal.hashes.saveHash, { text: "a", hash: "h" });
  const doc = await t.run(async (ctx) => await ctx.db.get("hashes", id));
  expect(doc).toMatchObject({ text: "a", hash: "h" });
});
