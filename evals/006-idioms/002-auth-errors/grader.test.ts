import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

// The error a call rejected with; fails the test if it did not reject.
async function rejection(p: Promise<unknown>): Promise<{ data?: unknown; message?: string }> {
  try {
    await p;
  } catch (e) {
    return e as { data?: unknown };
  }
  throw new Error("expected the call to throw");
}

function code(err: { data?: unknown }): unknown {
  const data = err.data as { code?: unknown; message?: unknown } | undefined;
  expect(typeof data?.message).toBe("string");
  return data?.code;
}

test("create requires auth and throws ConvexError UNAUTHENTICATED otherwise", async () => {
  const t = convexTest(schema, modules);
  const err = await rejection(t.mutation(api.documents.create, { title: "x" }));
  expect(code(err)).toBe("UNAUTHENTICATED");
  expect(await t.run(async (ctx) => await ctx.db.query("documents").collect())).toHaveLength(0);
});

test("create stores the owner's tokenIdentifier and name; listMine is per user, oldest first", async () => {
  const t = convexTest(schema, modules);
  const ada = t.withIdentity({ name: "Ada", subject: "ada", tokenIdentifier: "test|ada" });
  const bob = t.withIdentity({ name: "Bob", subject: "bob", tokenIdentifier: "test|bob" });
  const a1 = await ada.mutation(api.documents.create, { title: "first" });
  await bob.mutation(api.documents.create, { title: "bob's" });
  const a2 = await ada.mutation(api.documents.create, { title: "second" });
  const doc = await t.run(async (ctx) => await ctx.db.get("documents", a1));
  expect(doc).toMatchObject({ title: "first", ownerName: "Ada", ownerTokenIdentifier: "test|ada" });
  expect(await ada.query(api.documents.listMine, {})).toEqual([
    { _id: a1, title: "first", ownerName: "Ada" },
    { _id: a2, title: "second", ownerName: "Ada" },
  ]);
  expect((await bob.query(api.documents.listMine, {})).map((d) => d.title)).toEqual(["bob's"]);
  expect(await t.query(api.documents.listMine, {})).toEqual([]);
});

test("create without a name stores ownerName 'anonymous'", async () => {
  const t = convexTest(schema, modules);
  const anon = t.withIdentity({ subject: "anon" });
  const id = await anon.mutation(api.documents.create, { title: "t" });
  expect((await t.run(async (ctx) => await ctx.db.get("documents", id)))?.ownerName).toBe("anonymous");
});

test("rename checks auth, existence and ownership with ConvexError codes", async () => {
  const t = convexTest(schema, modules);
  const ada = t.withIdentity({ name: "Ada", subject: "ada", tokenIdentifier: "test|ada" });
  const bob = t.withIdentity({ name: "Bob", subject: "bob", tokenIdentifier: "test|bob" });
  const id = await ada.mutation(api.documents.create, { title: "draft" });
  expect(code(await rejection(t.mutation(api.documents.rename, { id, title: "x" })))).toBe("UNAUTHENTICATED");
  expect(code(await rejection(bob.mutation(api.documents.rename, { id, title: "x" })))).toBe("FORBIDDEN");
  expect(await ada.mutation(api.documents.rename, { id, title: "final" })).toBeNull();
  expect((await t.run(async (ctx) => await ctx.db.get("documents", id)))?.title).toBe("final");
  await t.run(async (ctx) => await ctx.db.delete("documents", id));
  expect(code(await rejection(ada.mutation(api.documents.rename, { id, title: "y" })))).toBe("NOT_FOUND");
});
