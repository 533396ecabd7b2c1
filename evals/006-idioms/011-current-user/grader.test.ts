import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { getCurrentUser, requireCurrentUser } from "./convex/model/currentUser";
const modules = import.meta.glob("./convex/**/*.*s");

async function code(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    const data = (e as { data?: { code?: unknown; message?: unknown } }).data;
    expect(typeof data?.message).toBe("string");
    return data?.code;
  }
  throw new Error("expected the call to throw");
}

function setup() {
  const t = convexTest(schema, modules);
  const ada = t.withIdentity({ name: "Ada", subject: "ada", tokenIdentifier: "test|ada" });
  const bob = t.withIdentity({ name: "Bob", subject: "bob", tokenIdentifier: "test|bob" });
  return { t, ada, bob };
}

test("ensureProfile creates the caller's row once", async () => {
  const { t, ada } = setup();
  expect(await code(t.mutation(api.users.ensureProfile, {}))).toBe("UNAUTHENTICATED");
  const id = await ada.mutation(api.users.ensureProfile, {});
  expect(await ada.mutation(api.users.ensureProfile, {})).toBe(id);
  const rows = await t.run(async (ctx) => await ctx.db.query("users").collect());
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ tokenIdentifier: "test|ada", name: "Ada", bio: "" });
  const anon = t.withIdentity({ subject: "anon", tokenIdentifier: "test|anon" });
  const anonId = await anon.mutation(api.users.ensureProfile, {});
  expect((await t.run(async (ctx) => await ctx.db.get("users", anonId)))!.name).toBe("anonymous");
});

test("me returns the caller's profile or null", async () => {
  const { t, ada, bob } = setup();
  expect(await t.query(api.users.me, {})).toBeNull();
  expect(await ada.query(api.users.me, {})).toBeNull();
  await ada.mutation(api.users.ensureProfile, {});
  await bob.mutation(api.users.ensureProfile, {});
  await bob.mutation(api.users.updateBio, { bio: "builder" });
  expect(await ada.query(api.users.me, {})).toEqual({ name: "Ada", bio: "" });
  expect(await bob.query(api.users.me, {})).toEqual({ name: "Bob", bio: "builder" });
});

test("updateBio checks the caller and the length", async () => {
  const { t, ada } = setup();
  expect(await code(t.mutation(api.users.updateBio, { bio: "x" }))).toBe("UNAUTHENTICATED");
  expect(await code(ada.mutation(api.users.updateBio, { bio: "x" }))).toBe("NO_PROFILE");
  await ada.mutation(api.users.ensureProfile, {});
  expect(await code(ada.mutation(api.users.updateBio, { bio: "x".repeat(161) }))).toBe("INVALID_ARGUMENT");
  expect(await ada.mutation(api.users.updateBio, { bio: "y".repeat(160) })).toBeNull();
  expect((await ada.query(api.users.me, {}))!.bio).toBe("y".repeat(160));
});

test("profileCard says whether the card is the caller's", async () => {
  const { t, ada, bob } = setup();
  const adaId = await ada.mutation(api.users.ensureProfile, {});
  expect(await ada.query(api.users.profileCard, { userId: adaId })).toEqual({ name: "Ada", bio: "", isMe: true });
  expect(await bob.query(api.users.profileCard, { userId: adaId })).toEqual({ name: "Ada", bio: "", isMe: false });
  expect(await t.query(api.users.profileCard, { userId: adaId })).toEqual({ name: "Ada", bio: "", isMe: false });
  await t.run(async (ctx) => await ctx.db.delete("users", adaId));
  expect(await ada.query(api.users.profileCard, { userId: adaId })).toBeNull();
});

test("the helpers work on their own", async () => {
  const { t, ada, bob } = setup();
  const adaId = await ada.mutation(api.users.ensureProfile, {});
  expect((await ada.run(async (ctx) => await getCurrentUser(ctx)))?._id).toBe(adaId);
  expect(await bob.run(async (ctx) => await getCurrentUser(ctx))).toBeNull();
  expect(await t.run(async (ctx) => await getCurrentUser(ctx))).toBeNull();
  expect((await ada.run(async (ctx) => await requireCurrentUser(ctx))).name).toBe("Ada");
  expect(await code(bob.run(async (ctx) => await requireCurrentUser(ctx)))).toBe("NO_PROFILE");
  expect(await code(t.run(async (ctx) => await requireCurrentUser(ctx)))).toBe("UNAUTHENTICATED");
});
