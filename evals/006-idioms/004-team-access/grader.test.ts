import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { requireIdentity, requireMembership } from "./convex/lib/access";
const modules = import.meta.glob("./convex/**/*.*s");

// The error a call rejected with; fails the test if it did not reject.
async function rejection(p: Promise<unknown>): Promise<{ data?: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as { data?: unknown };
  }
  throw new Error("expected the call to throw");
}

async function code(p: Promise<unknown>): Promise<unknown> {
  const data = (await rejection(p)).data as { code?: unknown; message?: unknown } | undefined;
  expect(typeof data?.message).toBe("string");
  return data?.code;
}

function setup() {
  const t = convexTest(schema, modules);
  const ada = t.withIdentity({ name: "Ada", subject: "ada", tokenIdentifier: "test|ada" });
  const bob = t.withIdentity({ name: "Bob", subject: "bob", tokenIdentifier: "test|bob" });
  const eve = t.withIdentity({ name: "Eve", subject: "eve", tokenIdentifier: "test|eve" });
  return { t, ada, bob, eve };
}

test("createTeam requires a caller and makes them owner", async () => {
  const { t, ada } = setup();
  expect(await code(t.mutation(api.teams.createTeam, { name: "x" }))).toBe("UNAUTHENTICATED");
  const teamId = await ada.mutation(api.teams.createTeam, { name: "Engines" });
  const memberships = await t.run(async (ctx) => await ctx.db.query("memberships").collect());
  expect(memberships).toHaveLength(1);
  expect(memberships[0]).toMatchObject({ teamId, userToken: "test|ada", role: "owner" });
});

test("members add and list notes oldest first; outsiders are forbidden", async () => {
  const { t, ada, bob, eve } = setup();
  const teamId = await ada.mutation(api.teams.createTeam, { name: "Engines" });
  expect(await ada.mutation(api.teams.addMember, { teamId, userToken: "test|bob" })).toBeNull();
  await ada.mutation(api.teams.addNote, { teamId, text: "first" });
  await bob.mutation(api.teams.addNote, { teamId, text: "second" });
  expect(await bob.query(api.teams.listNotes, { teamId })).toEqual([
    { text: "first", authorToken: "test|ada" },
    { text: "second", authorToken: "test|bob" },
  ]);
  expect(await code(eve.query(api.teams.listNotes, { teamId }))).toBe("FORBIDDEN");
  expect(await code(eve.mutation(api.teams.addNote, { teamId, text: "x" }))).toBe("FORBIDDEN");
  expect(await code(t.query(api.teams.listNotes, { teamId }))).toBe("UNAUTHENTICATED");
  expect(await code(t.mutation(api.teams.addNote, { teamId, text: "x" }))).toBe("UNAUTHENTICATED");
  expect(await t.run(async (ctx) => await ctx.db.query("notes").collect())).toHaveLength(2);
});

test("only owners add members, and adding twice changes nothing", async () => {
  const { t, ada, bob } = setup();
  const teamId = await ada.mutation(api.teams.createTeam, { name: "Engines" });
  await ada.mutation(api.teams.addMember, { teamId, userToken: "test|bob" });
  await ada.mutation(api.teams.addMember, { teamId, userToken: "test|bob" });
  expect(await code(bob.mutation(api.teams.addMember, { teamId, userToken: "test|eve" }))).toBe("FORBIDDEN");
  const memberships = await t.run(async (ctx) => await ctx.db.query("memberships").collect());
  expect(memberships.map((m) => [m.userToken, m.role]).sort()).toEqual([["test|ada", "owner"], ["test|bob", "member"]]);
});

test("a deleted team is NOT_FOUND (after the sign-in check)", async () => {
  const { t, ada } = setup();
  const teamId = await ada.mutation(api.teams.createTeam, { name: "Gone" });
  await t.run(async (ctx) => await ctx.db.delete("teams", teamId));
  expect(await code(ada.query(api.teams.listNotes, { teamId }))).toBe("NOT_FOUND");
  expect(await code(ada.mutation(api.teams.addNote, { teamId, text: "x" }))).toBe("NOT_FOUND");
  expect(await code(ada.mutation(api.teams.addMember, { teamId, userToken: "u" }))).toBe("NOT_FOUND");
  expect(await code(t.mutation(api.teams.addNote, { teamId, text: "x" }))).toBe("UNAUTHENTICATED");
});

test("myTeams lists the caller's teams with roles, oldest membership first", async () => {
  const { t, ada, bob } = setup();
  expect(await code(t.query(api.teams.myTeams, {}))).toBe("UNAUTHENTICATED");
  const engines = await ada.mutation(api.teams.createTeam, { name: "Engines" });
  const boats = await bob.mutation(api.teams.createTeam, { name: "Boats" });
  const gone = await ada.mutation(api.teams.createTeam, { name: "Gone" });
  await bob.mutation(api.teams.addMember, { teamId: boats, userToken: "test|ada" });
  await t.run(async (ctx) => await ctx.db.delete("teams", gone));
  expect(await ada.query(api.teams.myTeams, {})).toEqual([
    { teamId: engines, name: "Engines", role: "owner" },
    { teamId: boats, name: "Boats", role: "member" },
  ]);
  expect(await bob.query(api.teams.myTeams, {})).toEqual([{ teamId: boats, name: "Boats", role: "owner" }]);
});

test("the access helpers work on their own", async () => {
  const { t, ada, eve } = setup();
  const teamId = await ada.mutation(api.teams.createTeam, { name: "Engines" });
  expect((await ada.run(async (ctx) => await requireIdentity(ctx))).tokenIdentifier).toBe("test|ada");
  expect(await code(t.run(async (ctx) => await requireIdentity(ctx)))).toBe("UNAUTHENTICATED");
  expect(await ada.run(async (ctx) => await requireMembership(ctx, teamId))).toMatchObject({ teamId, role: "owner" });
  expect(await code(eve.run(async (ctx) => await requireMembership(ctx, teamId)))).toBe("FORBIDDEN");
});
