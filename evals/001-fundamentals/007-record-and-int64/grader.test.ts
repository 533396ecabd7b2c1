import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("create starts with empty scores and zero plays", async () => {
  const t = convexTest(schema, modules);
  const boardId = await t.mutation(api.scoreboards.create, { name: "arcade" });
  expect(await t.query(api.scoreboards.get, { boardId })).toEqual({
    name: "arcade",
    scores: {},
    plays: 0n,
  });
});

test("addScore accumulates per player and counts plays as a bigint", async () => {
  const t = convexTest(schema, modules);
  const boardId = await t.mutation(api.scoreboards.create, { name: "b" });
  expect(await t.mutation(api.scoreboards.addScore, { boardId, player: "ann", points: 5 })).toBeNull();
  await t.mutation(api.scoreboards.addScore, { boardId, player: "bo", points: 3 });
  await t.mutation(api.scoreboards.addScore, { boardId, player: "ann", points: 2.5 });
  const board = await t.query(api.scoreboards.get, { boardId });
  expect(board).toEqual({ name: "b", scores: { ann: 7.5, bo: 3 }, plays: 3n });
  expect(typeof board!.plays).toBe("bigint");
  const doc = await t.run(async (ctx) => await ctx.db.get("scoreboards", boardId));
  expect(doc!.plays).toBe(3n);
});

test("addScore throws for a missing scoreboard", async () => {
  const t = convexTest(schema, modules);
  const boardId = await t.mutation(api.scoreboards.create, { name: "x" });
  await t.run(async (ctx) => {
    await ctx.db.delete("scoreboards", boardId);
  });
  await expect(
    t.mutation(api.scoreboards.addScore, { boardId, player: "p", points: 1 }),
  ).rejects.toThrow();
  expect(await t.query(api.scoreboards.get, { boardId })).toBeNull();
});

test("leader picks the highest score, alphabetical on ties", async () => {
  const t = convexTest(schema, modules);
  const boardId = await t.mutation(api.scoreboards.create, { name: "l" });
  expect(await t.query(api.scoreboards.leader, { boardId })).toBeNull();
  await t.mutation(api.scoreboards.addScore, { boardId, player: "zed", points: 4 });
  await t.mutation(api.scoreboards.addScore, { boardId, player: "amy", points: 1 });
  expect(await t.query(api.scoreboards.leader, { boardId })).toBe("zed");
  await t.mutation(api.scoreboards.addScore, { boardId, player: "amy", points: 3 });
  expect(await t.query(api.scoreboards.leader, { boardId })).toBe("amy");
});
