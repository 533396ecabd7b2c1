import { convexTest } from "convex-test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

const DAY = 86_400_000;
const T0 = Date.UTC(2032, 3, 1, 0, 0, 0);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

async function recordAt(t: ReturnType<typeof convexTest>, at: number, player: string, points: number) {
  vi.setSystemTime(at);
  return await t.mutation(api.scores.record, { player, points });
}

test("record stores the score with the mutation's clock", async () => {
  const t = convexTest(schema, modules);
  const id = await recordAt(t, T0 + 5, "ada", 10);
  expect(await t.run(async (ctx) => await ctx.db.get("scores", id))).toMatchObject({ player: "ada", points: 10, recordedAt: T0 + 5 });
});

test("topScores: highest first, ties most recent first, at most limit", async () => {
  const t = convexTest(schema, modules);
  await recordAt(t, T0, "ada", 50);
  await recordAt(t, T0 + 1, "bob", 70);
  await recordAt(t, T0 + 2, "cy", 50);
  await recordAt(t, T0 + 3, "dee", 20);
  await recordAt(t, T0 + 4, "eve", 50);
  expect(await t.query(api.scores.topScores, { limit: 10 })).toEqual([
    { player: "bob", points: 70 },
    { player: "eve", points: 50 },
    { player: "cy", points: 50 },
    { player: "ada", points: 50 },
    { player: "dee", points: 20 },
  ]);
  expect(await t.query(api.scores.topScores, { limit: 2 })).toEqual([
    { player: "bob", points: 70 },
    { player: "eve", points: 50 },
  ]);
});

test("weeklyTop uses the window (now - 7 days, now] from its argument", async () => {
  const t = convexTest(schema, modules);
  await recordAt(t, T0 - 8 * DAY, "old", 999);
  await recordAt(t, T0 - 7 * DAY, "edge", 500);
  await recordAt(t, T0 - 3 * DAY, "ada", 40);
  await recordAt(t, T0 - 1 * DAY, "bob", 90);
  await recordAt(t, T0, "cy", 60);
  await recordAt(t, T0 + 1 * DAY, "future", 1000);
  // the clock is somewhere else entirely: only `now` may matter
  vi.setSystemTime(T0 + 30 * DAY);
  expect(await t.query(api.scores.weeklyTop, { now: T0, limit: 10 })).toEqual([
    { player: "bob", points: 90 },
    { player: "cy", points: 60 },
    { player: "ada", points: 40 },
  ]);
  expect(await t.query(api.scores.weeklyTop, { now: T0, limit: 1 })).toEqual([{ player: "bob", points: 90 }]);
  expect((await t.query(api.scores.weeklyTop, { now: T0 - 7 * DAY, limit: 10 })).map((e) => e.player)).toEqual(["old", "edge"]);
});

test("weeklyTop tie-breaks: earlier recordedAt first, then player name", async () => {
  const t = convexTest(schema, modules);
  await recordAt(t, T0 + 10, "zed", 5);
  await recordAt(t, T0 + 10, "amy", 5);
  await recordAt(t, T0 + 5, "max", 5);
  await recordAt(t, T0 + 20, "kim", 7);
  vi.setSystemTime(T0 - 30 * DAY);
  expect(await t.query(api.scores.weeklyTop, { now: T0 + DAY, limit: 10 })).toEqual([
    { player: "kim", points: 7 },
    { player: "max", points: 5 },
    { player: "amy", points: 5 },
    { player: "zed", points: 5 },
  ]);
  // the same arguments give the same answer
  expect(await t.query(api.scores.weeklyTop, { now: T0 + DAY, limit: 10 })).toEqual(
    await t.query(api.scores.weeklyTop, { now: T0 + DAY, limit: 10 }),
  );
});
