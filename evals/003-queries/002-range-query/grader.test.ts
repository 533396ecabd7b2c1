import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  // Inserted out of timestamp order on purpose.
  await t.mutation(api.readings.add, { sensorId: "s1", timestamp: 300, value: 3 });
  await t.mutation(api.readings.add, { sensorId: "s1", timestamp: 100, value: 1 });
  await t.mutation(api.readings.add, { sensorId: "s2", timestamp: 200, value: 99 });
  await t.mutation(api.readings.add, { sensorId: "s1", timestamp: 200, value: 2 });
  await t.mutation(api.readings.add, { sensorId: "s1", timestamp: 400, value: 4 });
}

test("between is inclusive of from, exclusive of to, sorted by timestamp", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.readings.between, { sensorId: "s1", from: 100, to: 400 })).toEqual([1, 2, 3]);
  expect(await t.query(api.readings.between, { sensorId: "s1", from: 150, to: 1000 })).toEqual([2, 3, 4]);
});

test("between only returns the requested sensor", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.readings.between, { sensorId: "s2", from: 0, to: 1000 })).toEqual([99]);
  expect(await t.query(api.readings.between, { sensorId: "s3", from: 0, to: 1000 })).toEqual([]);
  expect(await t.query(api.readings.between, { sensorId: "s1", from: 200, to: 200 })).toEqual([]);
});

test("latestReading returns the reading with the largest timestamp", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  // Inserted last but with an older timestamp: must not win.
  await t.mutation(api.readings.add, { sensorId: "s1", timestamp: 50, value: 0 });
  expect(await t.query(api.readings.latestReading, { sensorId: "s1" })).toEqual({
    timestamp: 400,
    value: 4,
  });
  expect(await t.query(api.readings.latestReading, { sensorId: "s2" })).toEqual({
    timestamp: 200,
    value: 99,
  });
});

test("latestReading returns null for a sensor without readings", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.readings.latestReading, { sensorId: "nope" })).toBeNull();
});

test("add rejects a non-number timestamp", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.readings.add, { sensorId: "s1", timestamp: "1" as unknown as number, value: 1 }),
  ).rejects.toThrow();
});
