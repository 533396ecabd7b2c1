import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  // Inserted out of order on purpose.
  const rows: [string, number, number][] = [
    ["a", 300, 3],
    ["a", 100, 1],
    ["b", 150, 99],
    ["a", 400, 4],
    ["a", 200, 2],
    ["b", 50, 98],
  ];
  for (const [sensor, takenAt, value] of rows) {
    await t.mutation(api.readings.record, { sensor, takenAt, value });
  }
}

test("inRange is inclusive of from, exclusive of to, sorted by takenAt", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.readings.inRange, { sensor: "a", from: 100, to: 400 })).toEqual([
    { takenAt: 100, value: 1 },
    { takenAt: 200, value: 2 },
    { takenAt: 300, value: 3 },
  ]);
  expect(await t.query(api.readings.inRange, { sensor: "a", from: 150, to: 1000 })).toEqual([
    { takenAt: 200, value: 2 },
    { takenAt: 300, value: 3 },
    { takenAt: 400, value: 4 },
  ]);
});

test("inRange only returns the requested sensor", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.readings.inRange, { sensor: "b", from: 0, to: 1000 })).toEqual([
    { takenAt: 50, value: 98 },
    { takenAt: 150, value: 99 },
  ]);
  expect(await t.query(api.readings.inRange, { sensor: "c", from: 0, to: 1000 })).toEqual([]);
  expect(await t.query(api.readings.inRange, { sensor: "a", from: 200, to: 200 })).toEqual([]);
});

test("latest is the greatest takenAt, not the newest insert", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.readings.latest, { sensor: "a" })).toEqual({ takenAt: 400, value: 4 });
  expect(await t.query(api.readings.latest, { sensor: "b" })).toEqual({ takenAt: 150, value: 99 });
  expect(await t.query(api.readings.latest, { sensor: "none" })).toBeNull();
});

test("the compound index orders by sensor then time", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const rows = await t.run(async (ctx) =>
    ctx.db
      .query("readings")
      .withIndex("by_sensor_and_time", (q) => q.eq("sensor", "a").gt("takenAt", 150))
      .collect(),
  );
  expect(rows.map((r) => r.takenAt)).toEqual([200, 300, 400]);
});
