import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import { ConvexError } from "convex/values";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function errorData(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    const data: unknown = (error as { data: unknown }).data;
    return typeof data === "string" ? JSON.parse(data) : data;
  }
  throw new Error("expected the call to throw");
}

async function membershipCount(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => (await ctx.db.query("memberships").collect()).length);
}

test("createTeam makes the creator its owner", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.teams.createUser, { name: "Ann" });
  const teamId = await t.mutation(api.teams.createTeam, { name: "Core", ownerId: ann });
  expect(await t.query(api.teams.membersByRole, { teamId, role: "owner" })).toEqual(["Ann"]);
  expect(await t.query(api.teams.teamsOf, { userId: ann })).toEqual([{ team: "Core", role: "owner" }]);
  const m = await t.run(async (ctx) => await ctx.db.query("memberships").collect());
  expect(m).toHaveLength(1);
  expect(m[0]).toMatchObject({ teamId, userId: ann, role: "owner" });
});

test("membersByRole lists one role of one team, oldest first", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.teams.createUser, { name: "Ann" });
  const bo = await t.mutation(api.teams.createUser, { name: "Bo" });
  const cy = await t.mutation(api.teams.createUser, { name: "Cy" });
  const dee = await t.mutation(api.teams.createUser, { name: "Dee" });
  const core = await t.mutation(api.teams.createTeam, { name: "Core", ownerId: ann });
  const web = await t.mutation(api.teams.createTeam, { name: "Web", ownerId: bo });
  await t.mutation(api.teams.addMember, { teamId: core, userId: dee, role: "member" });
  await t.mutation(api.teams.addMember, { teamId: core, userId: cy, role: "admin" });
  await t.mutation(api.teams.addMember, { teamId: core, userId: bo, role: "member" });
  await t.mutation(api.teams.addMember, { teamId: web, userId: cy, role: "member" });
  expect(await t.query(api.teams.membersByRole, { teamId: core, role: "member" })).toEqual(["Dee", "Bo"]);
  expect(await t.query(api.teams.membersByRole, { teamId: core, role: "admin" })).toEqual(["Cy"]);
  expect(await t.query(api.teams.membersByRole, { teamId: web, role: "member" })).toEqual(["Cy"]);
  expect(await t.query(api.teams.membersByRole, { teamId: web, role: "admin" })).toEqual([]);
  const cyTeams = await t.query(api.teams.teamsOf, { userId: cy });
  const expected = [
    { id: core, entry: { team: "Core", role: "admin" } },
    { id: web, entry: { team: "Web", role: "member" } },
  ].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  expect(cyTeams).toEqual(expected.map((e) => e.entry));
});

test("addMember refuses a second membership in the same team", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.teams.createUser, { name: "Ann" });
  const bo = await t.mutation(api.teams.createUser, { name: "Bo" });
  const teamId = await t.mutation(api.teams.createTeam, { name: "Core", ownerId: ann });
  await t.mutation(api.teams.addMember, { teamId, userId: bo, role: "member" });
  expect(await errorData(t.mutation(api.teams.addMember, { teamId, userId: bo, role: "admin" }))).toEqual({
    code: "ALREADY_MEMBER",
  });
  expect(
    await errorData(t.mutation(api.teams.addMember, { teamId, userId: ann, role: "member" })),
  ).toEqual({ code: "ALREADY_MEMBER" });
  expect(await membershipCount(t)).toBe(2);
});

test("addMember and createTeam reject missing users and teams", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.teams.createUser, { name: "Ann" });
  const gone = await t.mutation(api.teams.createUser, { name: "Gone" });
  const teamId = await t.mutation(api.teams.createTeam, { name: "Core", ownerId: ann });
  const goneTeam = await t.mutation(api.teams.createTeam, { name: "Old", ownerId: ann });
  await t.run(async (ctx) => {
    await ctx.db.delete("users", gone);
    await ctx.db.delete("teams", goneTeam);
  });
  const before = await membershipCount(t);
  expect(await errorData(t.mutation(api.teams.addMember, { teamId, userId: gone, role: "member" }))).toEqual({
    code: "NOT_FOUND",
  });
  expect(
    await errorData(t.mutation(api.teams.addMember, { teamId: goneTeam, userId: ann, role: "member" })),
  ).toEqual({ code: "NOT_FOUND" });
  await expect(t.mutation(api.teams.createTeam, { name: "X", ownerId: gone })).rejects.toThrow();
  expect(await membershipCount(t)).toBe(before);
});

test("addMember rejects the owner role", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.teams.createUser, { name: "Ann" });
  const bo = await t.mutation(api.teams.createUser, { name: "Bo" });
  const teamId = await t.mutation(api.teams.createTeam, { name: "Core", ownerId: ann });
  await expect(
    t.mutation(api.teams.addMember, { teamId, userId: bo, role: "owner" as unknown as "admin" }),
  ).rejects.toThrow();
});

test("the compound indexes exist", async () => {
  const t = convexTest(schema, modules);
  const ann = await t.mutation(api.teams.createUser, { name: "Ann" });
  const teamId = await t.mutation(api.teams.createTeam, { name: "Core", ownerId: ann });
  const a = await t.run(async (ctx) =>
    ctx.db
      .query("memberships")
      .withIndex("by_team_and_role", (q) => q.eq("teamId", teamId).eq("role", "owner"))
      .collect(),
  );
  const b = await t.run(async (ctx) =>
    ctx.db
      .query("memberships")
      .withIndex("by_user_and_team", (q) => q.eq("userId", ann).eq("teamId", teamId))
      .collect(),
  );
  expect(a).toHaveLength(1);
  expect(b).toHaveLength(1);
});
