import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  const ann = await t.mutation(internal.users.createUser, {
    name: "Ann",
    email: "ann@example.com",
    role: "admin",
    apiToken: "tok-ann",
  });
  const bo = await t.mutation(internal.users.createUser, {
    name: "Bo",
    email: "bo@example.com",
    role: "member",
    apiToken: "tok-bo",
  });
  const cy = await t.mutation(internal.users.createUser, {
    name: "Cy",
    email: "cy@example.com",
    role: "member",
    apiToken: "tok-cy",
  });
  return { ann, bo, cy };
}

test("publicProfile returns only name and role", async () => {
  const t = convexTest(schema, modules);
  const { ann, bo } = await seed(t);
  expect(await t.query(api.users.publicProfile, { userId: ann })).toEqual({
    name: "Ann",
    role: "admin",
  });
  expect(await t.query(api.users.publicProfile, { userId: bo })).toEqual({
    name: "Bo",
    role: "member",
  });
});

test("publicProfile returns null for a deleted user", async () => {
  const t = convexTest(schema, modules);
  const { cy } = await seed(t);
  await t.run(async (ctx) => {
    await ctx.db.delete("users", cy);
  });
  expect(await t.query(api.users.publicProfile, { userId: cy })).toBeNull();
});

test("listMembers returns only members as { _id, name }, oldest first", async () => {
  const t = convexTest(schema, modules);
  const { bo, cy } = await seed(t);
  expect(await t.query(api.users.listMembers, {})).toEqual([
    { _id: bo, name: "Bo" },
    { _id: cy, name: "Cy" },
  ]);
});

test("getByToken returns the full document or null", async () => {
  const t = convexTest(schema, modules);
  const { bo } = await seed(t);
  const user = await t.query(internal.users.getByToken, { apiToken: "tok-bo" });
  expect(user).toMatchObject({
    _id: bo,
    name: "Bo",
    email: "bo@example.com",
    role: "member",
    apiToken: "tok-bo",
  });
  expect(typeof user!._creationTime).toBe("number");
  expect(await t.query(internal.users.getByToken, { apiToken: "nope" })).toBeNull();
});

test("createUser validates the role", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(internal.users.createUser, {
      name: "X",
      email: "x@example.com",
      role: "owner" as unknown as "admin",
      apiToken: "t",
    }),
  ).rejects.toThrow();
});
