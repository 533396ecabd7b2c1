import { convexTest } from "convex-test";
import { ConvexError } from "convex/values";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function errorData(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    return (error as { data: unknown }).data;
  }
  throw new Error("expected the call to throw");
}

async function all(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => await ctx.db.query("customers").collect());
}

test("sync inserts, then updates in place", async () => {
  const t = convexTest(schema, modules);
  const first = await t.mutation(api.customers.sync, { externalId: "x1", email: "a@x.io", name: "Ann", phone: "111" });
  expect(first.created).toBe(true);
  const second = await t.mutation(api.customers.sync, { externalId: "x1", email: "ann@x.io", name: "Ann B", phone: "222" });
  expect(second).toEqual({ id: first.id, created: false });
  const docs = await all(t);
  expect(docs).toHaveLength(1);
  expect(docs[0]).toMatchObject({ _id: first.id, externalId: "x1", email: "ann@x.io", name: "Ann B", phone: "222" });
});

test("sync is idempotent and keeps the phone when none is given", async () => {
  const t = convexTest(schema, modules);
  const args = { externalId: "x2", email: "b@x.io", name: "Bob", phone: "555" };
  const a = await t.mutation(api.customers.sync, args);
  const b = await t.mutation(api.customers.sync, args);
  expect(b).toEqual({ id: a.id, created: false });
  await t.mutation(api.customers.sync, { externalId: "x2", email: "bob@x.io", name: "Bob" });
  const docs = await all(t);
  expect(docs).toHaveLength(1);
  expect(docs[0]).toMatchObject({ email: "bob@x.io", name: "Bob", phone: "555" });
  const other = await t.mutation(api.customers.sync, { externalId: "x3", email: "c@x.io", name: "Cy" });
  expect(other.created).toBe(true);
  const cy = await t.query(api.customers.get, { externalId: "x3" });
  expect(cy).toMatchObject({ _id: other.id, externalId: "x3", email: "c@x.io", name: "Cy" });
  expect(typeof cy?._creationTime).toBe("number");
  expect(cy !== null && "phone" in cy).toBe(false);
});

test("sync validates the email before writing", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.customers.sync, { externalId: "x1", email: "a@x.io", name: "Ann" });
  expect(await errorData(t.mutation(api.customers.sync, { externalId: "x1", email: "nope", name: "Changed" }))).toEqual({
    code: "INVALID_EMAIL",
  });
  expect(await errorData(t.mutation(api.customers.sync, { externalId: "x9", email: "nope", name: "New" }))).toEqual({
    code: "INVALID_EMAIL",
  });
  const docs = await all(t);
  expect(docs).toHaveLength(1);
  expect(docs[0]).toMatchObject({ email: "a@x.io", name: "Ann" });
});

test("clearPhone removes the field; missing customers are NOT_FOUND", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.customers.sync, { externalId: "x1", email: "a@x.io", name: "Ann", phone: "111" });
  expect(await t.mutation(api.customers.clearPhone, { externalId: "x1" })).toBeNull();
  const doc = await t.query(api.customers.get, { externalId: "x1" });
  expect(doc).toMatchObject({ externalId: "x1", email: "a@x.io", name: "Ann" });
  expect(doc !== null && "phone" in doc).toBe(false);
  expect(await errorData(t.mutation(api.customers.clearPhone, { externalId: "none" }))).toEqual({ code: "NOT_FOUND" });
  expect(await t.query(api.customers.get, { externalId: "none" })).toBeNull();
});
