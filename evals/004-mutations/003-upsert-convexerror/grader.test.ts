import { convexTest } from "convex-test";
import { ConvexError } from "convex/values";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("set inserts a new setting and get reads it", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.settings.set, { userId: "u1", key: "theme", value: "dark" });
  expect(typeof id).toBe("string");
  expect(await t.query(api.settings.get, { userId: "u1", key: "theme" })).toBe("dark");
  expect(await t.query(api.settings.get, { userId: "u1", key: "lang" })).toBeNull();
  expect(await t.query(api.settings.get, { userId: "u2", key: "theme" })).toBeNull();
});

test("set updates in place: same id, one document", async () => {
  const t = convexTest(schema, modules);
  const first = await t.mutation(api.settings.set, { userId: "u1", key: "theme", value: "dark" });
  const second = await t.mutation(api.settings.set, { userId: "u1", key: "theme", value: "light" });
  expect(second).toBe(first);
  expect(await t.query(api.settings.get, { userId: "u1", key: "theme" })).toBe("light");
  const docs = await t.run(async (ctx) => await ctx.db.query("settings").collect());
  expect(docs).toHaveLength(1);
  expect(docs[0]).toMatchObject({ userId: "u1", key: "theme", value: "light" });
});

test("set throws ConvexError on an empty key or a too-long value and writes nothing", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.settings.set, { userId: "u1", key: "", value: "x" }),
  ).rejects.toThrow(ConvexError);
  await expect(
    t.mutation(api.settings.set, { userId: "u1", key: "bio", value: "a".repeat(101) }),
  ).rejects.toThrow(ConvexError);
  const docs = await t.run(async (ctx) => await ctx.db.query("settings").collect());
  expect(docs).toHaveLength(0);
  // Exactly 100 characters is allowed.
  await t.mutation(api.settings.set, { userId: "u1", key: "bio", value: "a".repeat(100) });
  expect(await t.query(api.settings.get, { userId: "u1", key: "bio" })).toBe("a".repeat(100));
});

test("listForUser returns that user's settings sorted by key", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.settings.set, { userId: "u1", key: "zoom", value: "2" });
  await t.mutation(api.settings.set, { userId: "u2", key: "alpha", value: "x" });
  await t.mutation(api.settings.set, { userId: "u1", key: "alpha", value: "1" });
  await t.mutation(api.settings.set, { userId: "u1", key: "mid", value: "m" });
  expect(await t.query(api.settings.listForUser, { userId: "u1" })).toEqual([
    { key: "alpha", value: "1" },
    { key: "mid", value: "m" },
    { key: "zoom", value: "2" },
  ]);
  expect(await t.query(api.settings.listForUser, { userId: "nobody" })).toEqual([]);
});
