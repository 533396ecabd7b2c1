import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function tree(t: ReturnType<typeof convexTest>) {
  const docs = await t.mutation(api.folders.create, { name: "docs", parentId: null });
  const y2024 = await t.mutation(api.folders.create, { name: "2024", parentId: docs });
  const taxes = await t.mutation(api.folders.create, { name: "taxes", parentId: y2024 });
  const music = await t.mutation(api.folders.create, { name: "music", parentId: null });
  const y2023 = await t.mutation(api.folders.create, { name: "2023", parentId: docs });
  return { docs, y2024, taxes, music, y2023 };
}

test("top-level folders store parentId as null", async () => {
  const t = convexTest(schema, modules);
  const { docs, y2024 } = await tree(t);
  const root = await t.run(async (ctx) => await ctx.db.get("folders", docs));
  expect(root !== null && "parentId" in root).toBe(true);
  expect(root?.parentId).toBeNull();
  const child = await t.run(async (ctx) => await ctx.db.get("folders", y2024));
  expect(child?.parentId).toBe(docs);
});

test("children lists direct children, oldest first, and top-level folders for null", async () => {
  const t = convexTest(schema, modules);
  const { docs, taxes } = await tree(t);
  expect(await t.query(api.folders.children, { parentId: null })).toEqual(["docs", "music"]);
  expect(await t.query(api.folders.children, { parentId: docs })).toEqual(["2024", "2023"]);
  expect(await t.query(api.folders.children, { parentId: taxes })).toEqual([]);
});

test("path goes from the root down to the folder", async () => {
  const t = convexTest(schema, modules);
  const { taxes, music } = await tree(t);
  expect(await t.query(api.folders.path, { folderId: taxes })).toEqual(["docs", "2024", "taxes"]);
  expect(await t.query(api.folders.path, { folderId: music })).toEqual(["music"]);
  await t.run(async (ctx) => {
    await ctx.db.delete("folders", music);
  });
  expect(await t.query(api.folders.path, { folderId: music })).toEqual([]);
});

test("create rejects a missing parent", async () => {
  const t = convexTest(schema, modules);
  const gone = await t.mutation(api.folders.create, { name: "gone", parentId: null });
  await t.run(async (ctx) => {
    await ctx.db.delete("folders", gone);
  });
  await expect(t.mutation(api.folders.create, { name: "x", parentId: gone })).rejects.toThrow();
  const all = await t.run(async (ctx) => await ctx.db.query("folders").collect());
  expect(all).toEqual([]);
});

test("move re-parents a folder and refuses cycles", async () => {
  const t = convexTest(schema, modules);
  const { docs, y2024, taxes, music } = await tree(t);
  expect(await t.mutation(api.folders.move, { folderId: taxes, parentId: music })).toBeNull();
  expect(await t.query(api.folders.path, { folderId: taxes })).toEqual(["music", "taxes"]);
  await t.mutation(api.folders.move, { folderId: music, parentId: null });
  await expect(t.mutation(api.folders.move, { folderId: docs, parentId: y2024 })).rejects.toThrow();
  await expect(t.mutation(api.folders.move, { folderId: docs, parentId: docs })).rejects.toThrow();
  expect(await t.query(api.folders.path, { folderId: y2024 })).toEqual(["docs", "2024"]);
  const gone = await t.mutation(api.folders.create, { name: "gone", parentId: null });
  await t.run(async (ctx) => {
    await ctx.db.delete("folders", gone);
  });
  await expect(t.mutation(api.folders.move, { folderId: taxes, parentId: gone })).rejects.toThrow();
  expect(await t.query(api.folders.path, { folderId: taxes })).toEqual(["music", "taxes"]);
  await t.mutation(api.folders.move, { folderId: y2024, parentId: null });
  expect(await t.query(api.folders.children, { parentId: null })).toEqual(["docs", "2024", "music"]);
});
