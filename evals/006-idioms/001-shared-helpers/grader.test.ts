import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { getUserByEmail, requireUserByEmail } from "./convex/model/users";
const modules = import.meta.glob("./convex/**/*.*s");

test("register inserts users and rejects a duplicate email", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.users.register, { name: "Ada", email: "ada@example.com" });
  await expect(t.mutation(api.users.register, { name: "Ada 2", email: "ada@example.com" })).rejects.toThrow();
  const users = await t.run(async (ctx) => await ctx.db.query("users").collect());
  expect(users).toHaveLength(1);
  expect(users[0]).toMatchObject({ _id: id, name: "Ada", email: "ada@example.com" });
});

test("helpers look users up by email and requireUserByEmail throws", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.users.register, { name: "Ada", email: "ada@example.com" });
  const found = await t.run(async (ctx) => await getUserByEmail(ctx, "ada@example.com"));
  expect(found?._id).toBe(id);
  expect(await t.run(async (ctx) => await getUserByEmail(ctx, "nobody@example.com"))).toBeNull();
  const required = await t.run(async (ctx) => await requireUserByEmail(ctx, "ada@example.com"));
  expect(required.name).toBe("Ada");
  await expect(t.run(async (ctx) => await requireUserByEmail(ctx, "nobody@example.com"))).rejects.toThrow();
});

test("create and listForEmail return the owner's project names oldest first", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.users.register, { name: "Ada", email: "ada@example.com" });
  await t.mutation(api.users.register, { name: "Bob", email: "bob@example.com" });
  await t.mutation(api.projects.create, { email: "ada@example.com", name: "engine" });
  await t.mutation(api.projects.create, { email: "bob@example.com", name: "bobs" });
  await t.mutation(api.projects.create, { email: "ada@example.com", name: "notes" });
  await expect(t.mutation(api.projects.create, { email: "x@example.com", name: "z" })).rejects.toThrow();
  expect(await t.query(api.projects.listForEmail, { email: "ada@example.com" })).toEqual(["engine", "notes"]);
  expect(await t.query(api.projects.listForEmail, { email: "bob@example.com" })).toEqual(["bobs"]);
  expect(await t.query(api.projects.listForEmail, { email: "x@example.com" })).toEqual([]);
});

test("getNames keeps order and returns null for deleted projects", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.users.register, { name: "Ada", email: "ada@example.com" });
  const a = await t.mutation(api.projects.create, { email: "ada@example.com", name: "a" });
  const b = await t.mutation(api.projects.create, { email: "ada@example.com", name: "b" });
  const c = await t.mutation(api.projects.create, { email: "ada@example.com", name: "c" });
  await t.run(async (ctx) => await ctx.db.delete("projects", b));
  expect(await t.query(api.projects.getNames, { ids: [c, b, a, c] })).toEqual(["c", null, "a", "c"]);
  expect(await t.query(api.projects.getNames, { ids: [] })).toEqual([]);
});
