import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

type Shape =
  | { kind: "circle"; label: string; radius: number }
  | { kind: "rectangle"; label: string; width: number; height: number };

test("add stores each shape exactly as given", async () => {
  const t = convexTest(schema, modules);
  const c = await t.mutation(api.shapes.add, { shape: { kind: "circle", label: "sun", radius: 2 } });
  const r = await t.mutation(api.shapes.add, {
    shape: { kind: "rectangle", label: "door", width: 1, height: 2 },
  });
  const docs = await t.run(async (ctx) => [
    await ctx.db.get("shapes", c),
    await ctx.db.get("shapes", r),
  ]);
  const strip = (d: Record<string, unknown> | null) => {
    const { _id, _creationTime, ...rest } = d!;
    return rest;
  };
  expect(strip(docs[0])).toEqual({ kind: "circle", label: "sun", radius: 2 });
  expect(strip(docs[1])).toEqual({ kind: "rectangle", label: "door", width: 1, height: 2 });
});

test("add rejects arguments that match neither shape", async () => {
  const t = convexTest(schema, modules);
  const bad = [
    { kind: "circle", label: "x", radius: 1, width: 3 },
    { kind: "rectangle", label: "x", width: 3 },
    { kind: "triangle", label: "x", radius: 1 },
  ];
  for (const shape of bad) {
    await expect(
      t.mutation(api.shapes.add, { shape: shape as unknown as Shape }),
    ).rejects.toThrow();
  }
  expect(await t.query(api.shapes.totalArea, {})).toBe(0);
});

test("the table itself rejects mixed shapes", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.run(async (ctx) => {
      await ctx.db.insert("shapes", {
        kind: "circle",
        label: "bad",
        radius: 1,
        width: 2,
      } as unknown as Shape);
    }),
  ).rejects.toThrow();
  await expect(
    t.run(async (ctx) => {
      await ctx.db.insert("shapes", { kind: "rectangle", label: "bad", width: 2 } as unknown as Shape);
    }),
  ).rejects.toThrow();
});

test("listByKind returns full documents of one kind, oldest first", async () => {
  const t = convexTest(schema, modules);
  const c1 = await t.mutation(api.shapes.add, { shape: { kind: "circle", label: "a", radius: 1 } });
  await t.mutation(api.shapes.add, { shape: { kind: "rectangle", label: "b", width: 2, height: 3 } });
  const c2 = await t.mutation(api.shapes.add, { shape: { kind: "circle", label: "c", radius: 3 } });
  const circles = await t.query(api.shapes.listByKind, { kind: "circle" });
  expect(circles.map((s) => s._id)).toEqual([c1, c2]);
  expect(circles[1]).toMatchObject({ kind: "circle", label: "c", radius: 3 });
  const rects = await t.query(api.shapes.listByKind, { kind: "rectangle" });
  expect(rects).toHaveLength(1);
  expect(rects[0]).toMatchObject({ kind: "rectangle", label: "b", width: 2, height: 3 });
  expect(typeof rects[0]._creationTime).toBe("number");
});

test("totalArea sums circles and rectangles", async () => {
  const t = convexTest(schema, modules);
  expect(await t.query(api.shapes.totalArea, {})).toBe(0);
  await t.mutation(api.shapes.add, { shape: { kind: "circle", label: "a", radius: 1 } });
  await t.mutation(api.shapes.add, { shape: { kind: "rectangle", label: "b", width: 2, height: 3 } });
  expect(await t.query(api.shapes.totalArea, {})).toBeCloseTo(Math.PI + 6, 9);
});
