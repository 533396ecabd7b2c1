import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import auditSchema from "./convex/auditLog/schema";
import { api, components } from "./convex/_generated/api";

// The app's modules without the component's: convex-test finds each root by its first _generated/.
const modules = import.meta.glob(["./convex/**/*.*s", "!./convex/auditLog/**"]);
const auditModules = import.meta.glob("./convex/auditLog/**/*.*s");

function setup() {
  const t = convexTest(schema, modules);
  t.registerComponent("auditLog", auditSchema, auditModules);
  return t;
}

test("create records the creation in the component and returns the document id", async () => {
  const t = setup();
  const id = await t.mutation(api.documents.create, { title: "Plan A", at: 100 });
  expect(await t.run(async (ctx) => await ctx.db.get("documents", id))).toMatchObject({ title: "Plan A", createdAt: 100 });
  expect(await t.query(api.documents.history, { documentId: id })).toEqual([{ action: "created", at: 100 }]);
});

test("rename updates the title and history lists events newest first", async () => {
  const t = setup();
  const id = await t.mutation(api.documents.create, { title: "Plan A", at: 100 });
  expect(await t.mutation(api.documents.rename, { documentId: id, title: "Plan B", at: 300 })).toBeNull();
  await t.mutation(api.documents.rename, { documentId: id, title: "Plan C", at: 200 });
  expect(await t.run(async (ctx) => await ctx.db.get("documents", id))).toMatchObject({ title: "Plan C", createdAt: 100 });
  expect(await t.query(api.documents.history, { documentId: id })).toEqual([
    { action: "renamed to Plan B", at: 300 },
    { action: "renamed to Plan C", at: 200 },
    { action: "created", at: 100 },
  ]);
});

test("each document has its own history", async () => {
  const t = setup();
  const a = await t.mutation(api.documents.create, { title: "A", at: 1 });
  const b = await t.mutation(api.documents.create, { title: "B", at: 2 });
  await t.mutation(api.documents.rename, { documentId: b, title: "B2", at: 3 });
  expect(await t.query(api.documents.history, { documentId: a })).toEqual([{ action: "created", at: 1 }]);
  expect(await t.query(api.documents.history, { documentId: b })).toEqual([
    { action: "renamed to B2", at: 3 },
    { action: "created", at: 2 },
  ]);
});

test("the component's own functions store and list events by subject", async () => {
  const t = setup();
  await t.mutation(components.auditLog.events.record, { subject: "s", action: "x", at: 5 });
  await t.mutation(components.auditLog.events.record, { subject: "s", action: "y", at: 9 });
  await t.mutation(components.auditLog.events.record, { subject: "other", action: "z", at: 7 });
  expect(await t.query(components.auditLog.events.forSubject, { subject: "s" })).toEqual([
    { action: "y", at: 9 },
    { action: "x", at: 5 },
  ]);
});

test("events live in the component's table, not the app's", async () => {
  const t = setup();
  const id = await t.mutation(api.documents.create, { title: "A", at: 1 });
  expect(await t.query(components.auditLog.events.forSubject, { subject: id })).toEqual([{ action: "created", at: 1 }]);
  // The app's own database has no audit events: an app table named like the component's is empty.
  const appEvents = await t.run(async (ctx) => await (ctx.db as any).query("events").collect().catch(() => []));
  expect(appEvents).toEqual([]);
});

test("renaming a missing document throws and records nothing", async () => {
  const t = setup();
  const id = await t.mutation(api.documents.create, { title: "A", at: 1 });
  await t.run(async (ctx) => {
    await ctx.db.delete("documents", id);
  });
  await expect(t.mutation(api.documents.rename, { documentId: id, title: "B", at: 2 })).rejects.toThrow();
  expect(await t.query(components.auditLog.events.forSubject, { subject: id })).toEqual([{ action: "created", at: 1 }]);
});
