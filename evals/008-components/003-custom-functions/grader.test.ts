import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { userMutation, userQuery } from "./convex/functions";

const modules = import.meta.glob("./convex/**/*.*s");

const ada = { tokenIdentifier: "test|ada", subject: "ada", issuer: "test", name: "Ada" };
const bob = { tokenIdentifier: "test|bob", subject: "bob", issuer: "test", name: "Bob" };

test("functions.ts exports the two builders", () => {
  expect(typeof userQuery).toBe("function");
  expect(typeof userMutation).toBe("function");
});

test("store creates the user once and returns the same id", async () => {
  const t = convexTest(schema, modules);
  const first = await t.withIdentity(ada).mutation(api.users.store, {});
  const second = await t.withIdentity(ada).mutation(api.users.store, {});
  expect(second).toEqual(first);
  const users = await t.run(async (ctx) => await ctx.db.query("users").collect());
  expect(users).toHaveLength(1);
  expect(users[0]).toMatchObject({ tokenIdentifier: "test|ada", name: "Ada" });
});

test("store uses Anonymous without a name and throws when signed out", async () => {
  const t = convexTest(schema, modules);
  const id = await t.withIdentity({ tokenIdentifier: "test|x", subject: "x", issuer: "test" }).mutation(api.users.store, {});
  expect((await t.run(async (ctx) => await ctx.db.get("users", id)))?.name).toBe("Anonymous");
  await expect(t.mutation(api.users.store, {})).rejects.toThrow();
});

test("addNote stores a note for the signed-in user and myNotes lists only theirs, oldest first", async () => {
  const t = convexTest(schema, modules);
  const adaId = await t.withIdentity(ada).mutation(api.users.store, {});
  await t.withIdentity(bob).mutation(api.users.store, {});
  const n1 = await t.withIdentity(ada).mutation(api.notes.addNote, { text: "first" });
  await t.withIdentity(bob).mutation(api.notes.addNote, { text: "bob's" });
  const n2 = await t.withIdentity(ada).mutation(api.notes.addNote, { text: "second" });
  expect(await t.withIdentity(ada).query(api.notes.myNotes, {})).toEqual([
    { _id: n1, text: "first" },
    { _id: n2, text: "second" },
  ]);
  expect((await t.run(async (ctx) => await ctx.db.get("notes", n1)))?.userId).toEqual(adaId);
  expect(await t.withIdentity(bob).query(api.notes.myNotes, {})).toEqual([
    expect.objectContaining({ text: "bob's" }),
  ]);
});

test("the builders refuse signed-out callers and identities without a user", async () => {
  const t = convexTest(schema, modules);
  await expect(t.mutation(api.notes.addNote, { text: "x" })).rejects.toThrow();
  await expect(t.query(api.notes.myNotes, {})).rejects.toThrow();
  await expect(t.withIdentity(ada).mutation(api.notes.addNote, { text: "x" })).rejects.toThrow();
  await expect(t.withIdentity(ada).query(api.notes.myNotes, {})).rejects.toThrow();
  const notes = await t.run(async (ctx) => await ctx.db.query("notes").collect());
  expect(notes).toHaveLength(0);
});

test("notes.userId holds user ids only (the schema rejects anything else)", async () => {
  const t = convexTest(schema, modules);
  const userId = await t.withIdentity(ada).mutation(api.users.store, {});
  await t.run(async (ctx) => {
    await ctx.db.insert("notes", { userId, text: "fine" });
  });
  await expect(
    t.run(async (ctx) => {
      await ctx.db.insert("notes", { userId: "not-a-user-id" as never, text: "bad" });
    }),
  ).rejects.toThrow();
});
