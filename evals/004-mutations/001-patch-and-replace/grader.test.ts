import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("create without website stores no website field", async () => {
  const t = convexTest(schema, modules);
  const profileId = await t.mutation(api.profiles.create, { name: "Ann", bio: "hi", age: 30 });
  const doc = await t.query(api.profiles.get, { profileId });
  expect(doc).toMatchObject({ _id: profileId, name: "Ann", bio: "hi", age: 30 });
  expect(doc !== null && "website" in doc).toBe(false);
});

test("updateBio changes only bio; other fields keep their values", async () => {
  const t = convexTest(schema, modules);
  const profileId = await t.mutation(api.profiles.create, {
    name: "Bob",
    bio: "old bio",
    age: 41,
    website: "https://bob.example",
  });
  expect(await t.mutation(api.profiles.updateBio, { profileId, bio: "new bio" })).toBeNull();
  const doc = await t.query(api.profiles.get, { profileId });
  expect(doc).toMatchObject({
    _id: profileId,
    name: "Bob",
    bio: "new bio",
    age: 41,
    website: "https://bob.example",
  });
});

test("replaceProfile overwrites the document and drops website", async () => {
  const t = convexTest(schema, modules);
  const profileId = await t.mutation(api.profiles.create, {
    name: "Cy",
    bio: "b",
    age: 20,
    website: "https://cy.example",
  });
  await t.mutation(api.profiles.replaceProfile, { profileId, name: "Cyrus", bio: "new", age: 21 });
  const doc = await t.query(api.profiles.get, { profileId });
  expect(doc).toMatchObject({ _id: profileId, name: "Cyrus", bio: "new", age: 21 });
  expect(doc !== null && "website" in doc).toBe(false);
  const count = await t.run(async (ctx) => (await ctx.db.query("profiles").collect()).length);
  expect(count).toBe(1);
});

test("updateBio and replaceProfile throw for a missing profile", async () => {
  const t = convexTest(schema, modules);
  const profileId = await t.mutation(api.profiles.create, { name: "D", bio: "b", age: 1 });
  await t.run(async (ctx) => {
    await ctx.db.delete("profiles", profileId);
  });
  await expect(t.mutation(api.profiles.updateBio, { profileId, bio: "x" })).rejects.toThrow();
  await expect(
    t.mutation(api.profiles.replaceProfile, { profileId, name: "x", bio: "x", age: 2 }),
  ).rejects.toThrow();
  expect(await t.query(api.profiles.get, { profileId })).toBeNull();
});
