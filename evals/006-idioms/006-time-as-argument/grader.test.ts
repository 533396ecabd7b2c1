import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

const HOUR = 3_600_000;
// Far from the real clock on purpose: the queries must use their `now` argument.
const T = Date.UTC(2041, 2, 3, 12, 0, 0);

async function seed(t: ReturnType<typeof convexTest>) {
  // inserted out of time order on purpose
  await t.mutation(api.events.create, { title: "lunch", startsAt: T + 1 * HOUR, endsAt: T + 2 * HOUR });
  await t.mutation(api.events.create, { title: "standup", startsAt: T - 1 * HOUR, endsAt: T + 1 });
  await t.mutation(api.events.create, { title: "review", startsAt: T + 3 * HOUR, endsAt: T + 4 * HOUR });
  await t.mutation(api.events.create, { title: "breakfast", startsAt: T - 3 * HOUR, endsAt: T - 2 * HOUR });
  await t.mutation(api.events.create, { title: "offsite", startsAt: T - 2 * HOUR, endsAt: T + 8 * HOUR });
  await t.mutation(api.events.create, { title: "retro", startsAt: T + 2 * HOUR, endsAt: T + 3 * HOUR });
}

test("create rejects an event that does not end after it starts", async () => {
  const t = convexTest(schema, modules);
  for (const [startsAt, endsAt] of [[T, T], [T, T - 1]]) {
    let err: { data?: { code?: unknown } } | null = null;
    try {
      await t.mutation(api.events.create, { title: "bad", startsAt, endsAt });
    } catch (e) {
      err = e as { data?: { code?: unknown } };
    }
    expect(err?.data?.code).toBe("INVALID_ARGUMENT");
  }
  expect(await t.run(async (ctx) => await ctx.db.query("events").collect())).toHaveLength(0);
});

test("listUpcoming returns events after now, soonest first, at most limit", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.events.listUpcoming, { now: T, limit: 10 })).toEqual([
    { title: "lunch", startsAt: T + 1 * HOUR },
    { title: "retro", startsAt: T + 2 * HOUR },
    { title: "review", startsAt: T + 3 * HOUR },
  ]);
  expect((await t.query(api.events.listUpcoming, { now: T, limit: 2 })).map((e) => e.title)).toEqual(["lunch", "retro"]);
  // strictly after: an event starting exactly at now is not upcoming
  expect((await t.query(api.events.listUpcoming, { now: T + 1 * HOUR, limit: 10 })).map((e) => e.title)).toEqual(["retro", "review"]);
});

test("listUpcoming depends only on its arguments", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect((await t.query(api.events.listUpcoming, { now: T - 10 * HOUR, limit: 3 })).map((e) => e.title)).toEqual([
    "breakfast", "offsite", "standup",
  ]);
  expect(await t.query(api.events.listUpcoming, { now: T + 10 * HOUR, limit: 3 })).toEqual([]);
});

test("listHappeningAt returns events with startsAt <= now < endsAt, earliest start first", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.events.listHappeningAt, { now: T })).toEqual(["offsite", "standup"]);
  expect(await t.query(api.events.listHappeningAt, { now: T + 1 })).toEqual(["offsite"]);
  expect(await t.query(api.events.listHappeningAt, { now: T + 1 * HOUR })).toEqual(["offsite", "lunch"]);
  expect(await t.query(api.events.listHappeningAt, { now: T - 2.5 * HOUR })).toEqual(["breakfast"]);
  expect(await t.query(api.events.listHappeningAt, { now: T + 9 * HOUR })).toEqual([]);
});
