import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  const scores: Array<[string, number]> = [["ann", 40], ["bob", 75], ["cy", 10], ["dee", 90], ["eve", 60]];
  for (const [handle, points] of scores) {
    await t.mutation(api.players.register, { handle });
    await t.mutation(api.players.addPoints, { handle, points });
  }
}

test("register and getPlayer; duplicates are rejected", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.players.register, { handle: "ann" });
  const ann = await t.query(api.players.getPlayer, { handle: "ann" });
  expect(ann).toMatchObject({ _id: id, handle: "ann", score: 0 });
  expect(typeof ann?._creationTime).toBe("number");
  await expect(t.mutation(api.players.register, { handle: "ann" })).rejects.toThrow();
  const players = await t.run(async (ctx) => await ctx.db.query("players").collect());
  expect(players).toHaveLength(1);
  expect(await t.query(api.players.getPlayer, { handle: "nobody" })).toBeNull();
});

test("addPoints accumulates and returns the new score", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.players.register, { handle: "ann" });
  expect(await t.mutation(api.players.addPoints, { handle: "ann", points: 5 })).toBe(5);
  expect(await t.mutation(api.players.addPoints, { handle: "ann", points: 7 })).toBe(12);
  expect((await t.query(api.players.getPlayer, { handle: "ann" }))?.score).toBe(12);
  await expect(t.mutation(api.players.addPoints, { handle: "ghost", points: 1 })).rejects.toThrow();
});

test("top returns the 3 highest scores, highest first", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.players.top, {})).toEqual([
    { handle: "dee", score: 90 },
    { handle: "bob", score: 75 },
    { handle: "eve", score: 60 },
  ]);
});

test("top with fewer than 3 players", async () => {
  const t = convexTest(schema, modules);
  expect(await t.query(api.players.top, {})).toEqual([]);
  await t.mutation(api.players.register, { handle: "solo" });
  expect(await t.query(api.players.top, {})).toEqual([{ handle: "solo", score: 0 }]);
});

test("rankOf counts players with a strictly greater score", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.players.rankOf, { handle: "dee" })).toBe(1);
  expect(await t.query(api.players.rankOf, { handle: "eve" })).toBe(3);
  expect(await t.query(api.players.rankOf, { handle: "cy" })).toBe(5);
  await t.mutation(api.players.register, { handle: "fay" });
  await t.mutation(api.players.addPoints, { handle: "fay", points: 75 });
  expect(await t.query(api.players.rankOf, { handle: "fay" })).toBe(2);
  expect(await t.query(api.players.rankOf, { handle: "bob" })).toBe(2);
  expect(await t.query(api.players.rankOf, { handle: "eve" })).toBe(4);
  expect(await t.query(api.players.rankOf, { handle: "nobody" })).toBeNull();
});
