import { convexTest } from "convex-test";
import aggregateTest from "@convex-dev/aggregate/test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

function setup() {
  const t = convexTest(schema, modules);
  aggregateTest.register(t, "aggregate");
  return t;
}

test("stats counts and sums the added scores", async () => {
  const t = setup();
  expect(await t.query(api.leaderboard.stats, {})).toEqual({ count: 0, total: 0 });
  await t.mutation(api.leaderboard.addScore, { player: "ada", points: 10 });
  await t.mutation(api.leaderboard.addScore, { player: "bob", points: 25 });
  await t.mutation(api.leaderboard.addScore, { player: "cy", points: 7 });
  expect(await t.query(api.leaderboard.stats, {})).toEqual({ count: 3, total: 42 });
});

test("addScore inserts the document and returns its id", async () => {
  const t = setup();
  const id = await t.mutation(api.leaderboard.addScore, { player: "ada", points: 10 });
  const doc = await t.run(async (ctx) => await ctx.db.get("scores", id));
  expect(doc).toMatchObject({ player: "ada", points: 10 });
});

test("rankOf is 0 for the highest score and counts down the points", async () => {
  const t = setup();
  const low = await t.mutation(api.leaderboard.addScore, { player: "ada", points: 10 });
  const high = await t.mutation(api.leaderboard.addScore, { player: "bob", points: 25 });
  const mid = await t.mutation(api.leaderboard.addScore, { player: "cy", points: 17 });
  expect(await t.query(api.leaderboard.rankOf, { scoreId: high })).toBe(0);
  expect(await t.query(api.leaderboard.rankOf, { scoreId: mid })).toBe(1);
  expect(await t.query(api.leaderboard.rankOf, { scoreId: low })).toBe(2);
});

test("removeScore deletes the score and takes it out of stats and ranks", async () => {
  const t = setup();
  const a = await t.mutation(api.leaderboard.addScore, { player: "ada", points: 10 });
  const b = await t.mutation(api.leaderboard.addScore, { player: "bob", points: 25 });
  expect(await t.mutation(api.leaderboard.removeScore, { scoreId: b })).toBeNull();
  expect(await t.query(api.leaderboard.stats, {})).toEqual({ count: 1, total: 10 });
  expect(await t.query(api.leaderboard.rankOf, { scoreId: a })).toBe(0);
  expect(await t.run(async (ctx) => await ctx.db.get("scores", b))).toBeNull();
  await expect(t.mutation(api.leaderboard.removeScore, { scoreId: b })).rejects.toThrow();
});

test("stats and rankOf read the aggregate, not the table", async () => {
  const t = setup();
  await t.mutation(api.leaderboard.addScore, { player: "ada", points: 10 });
  await t.run(async (ctx) => {
    await ctx.db.insert("scores", { player: "sneaky", points: 1000 });
  });
  expect(await t.query(api.leaderboard.stats, {})).toEqual({ count: 1, total: 10 });
});

test("rankOf throws for a missing score", async () => {
  const t = setup();
  const id = await t.mutation(api.leaderboard.addScore, { player: "ada", points: 10 });
  await t.mutation(api.leaderboard.removeScore, { scoreId: id });
  await expect(t.query(api.leaderboard.rankOf, { scoreId: id })).rejects.toThrow();
});
