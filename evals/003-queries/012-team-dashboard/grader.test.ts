import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("teamsOf returns the user's teams as full documents sorted by name", async () => {
  const t = convexTest(schema, modules);
  const zeta = await t.mutation(api.teams.createTeam, { name: "zeta" });
  const alpha = await t.mutation(api.teams.createTeam, { name: "alpha" });
  const mid = await t.mutation(api.teams.createTeam, { name: "mid" });
  await t.mutation(api.teams.join, { teamId: zeta, userName: "ann" });
  await t.mutation(api.teams.join, { teamId: alpha, userName: "ann" });
  await t.mutation(api.teams.join, { teamId: mid, userName: "bob" });
  const teams = await t.query(api.teams.teamsOf, { userName: "ann" });
  expect(teams.map((team) => team.name)).toEqual(["alpha", "zeta"]);
  expect(teams[0]).toMatchObject({ _id: alpha, name: "alpha" });
  expect(typeof teams[0]._creationTime).toBe("number");
  expect(await t.query(api.teams.teamsOf, { userName: "nobody" })).toEqual([]);
});

test("teamsOf skips teams that no longer exist", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.teams.createTeam, { name: "a" });
  const b = await t.mutation(api.teams.createTeam, { name: "b" });
  await t.mutation(api.teams.join, { teamId: a, userName: "ann" });
  await t.mutation(api.teams.join, { teamId: b, userName: "ann" });
  await t.run(async (ctx) => {
    await ctx.db.delete("teams", a);
  });
  expect((await t.query(api.teams.teamsOf, { userName: "ann" })).map((team) => team.name)).toEqual(["b"]);
});

test("join is idempotent per team and user and rejects a missing team", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.teams.createTeam, { name: "a" });
  const b = await t.mutation(api.teams.createTeam, { name: "b" });
  const first = await t.mutation(api.teams.join, { teamId: a, userName: "ann" });
  expect(await t.mutation(api.teams.join, { teamId: a, userName: "ann" })).toBe(first);
  const other = await t.mutation(api.teams.join, { teamId: b, userName: "ann" });
  expect(other).not.toBe(first);
  const rows = await t.run(async (ctx) => await ctx.db.query("memberships").collect());
  expect(rows).toHaveLength(2);
  await t.run(async (ctx) => {
    await ctx.db.delete("teams", b);
  });
  await expect(t.mutation(api.teams.join, { teamId: b, userName: "cy" })).rejects.toThrow();
  await expect(t.mutation(api.teams.addTask, { teamId: b, title: "x", done: false })).rejects.toThrow();
});

test("dashboard counts members and open and done tasks of one team", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.teams.createTeam, { name: "Alpha" });
  const b = await t.mutation(api.teams.createTeam, { name: "Beta" });
  for (const user of ["ann", "bob", "cy"]) {
    await t.mutation(api.teams.join, { teamId: a, userName: user });
  }
  await t.mutation(api.teams.join, { teamId: b, userName: "ann" });
  await t.mutation(api.teams.addTask, { teamId: a, title: "1", done: false });
  await t.mutation(api.teams.addTask, { teamId: a, title: "2", done: true });
  await t.mutation(api.teams.addTask, { teamId: a, title: "3", done: false });
  await t.mutation(api.teams.addTask, { teamId: b, title: "4", done: true });
  expect(await t.query(api.teams.dashboard, { teamId: a })).toEqual({ name: "Alpha", members: 3, openTasks: 2, doneTasks: 1 });
  expect(await t.query(api.teams.dashboard, { teamId: b })).toEqual({ name: "Beta", members: 1, openTasks: 0, doneTasks: 1 });
  await t.run(async (ctx) => {
    await ctx.db.delete("teams", b);
  });
  expect(await t.query(api.teams.dashboard, { teamId: b })).toBeNull();
});
