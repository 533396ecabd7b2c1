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

test("importBatch inserts every item and returns ids in input order", async () => {
  const t = convexTest(schema, modules);
  const ids = await t.mutation(api.contacts.importBatch, {
    contacts: [
      { email: "a@x.io", name: "A" },
      { email: "b@x.io", name: "B" },
      { email: "c@x.io", name: "C" },
    ],
  });
  expect(ids).toHaveLength(3);
  const docs = await t.run(async (ctx) => await Promise.all(ids.map((id) => ctx.db.get("contacts", id))));
  expect(docs.map((d) => d?.email)).toEqual(["a@x.io", "b@x.io", "c@x.io"]);
  expect(await t.query(api.contacts.count, {})).toBe(3);
});

test("existing emails are reused, in the table and within the batch", async () => {
  const t = convexTest(schema, modules);
  const [first] = await t.mutation(api.contacts.importBatch, { contacts: [{ email: "a@x.io", name: "Old" }] });
  const ids = await t.mutation(api.contacts.importBatch, {
    contacts: [
      { email: "b@x.io", name: "B" },
      { email: "a@x.io", name: "New" },
      { email: "b@x.io", name: "B again" },
    ],
  });
  expect(ids[1]).toBe(first);
  expect(ids[2]).toBe(ids[0]);
  expect(await t.query(api.contacts.count, {})).toBe(2);
  const a = await t.run(async (ctx) => await ctx.db.get("contacts", first));
  expect(a?.name).toBe("Old");
});

test("a bad email rejects the whole batch with its index", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.contacts.importBatch, { contacts: [{ email: "keep@x.io", name: "K" }] });
  const data = await errorData(
    t.mutation(api.contacts.importBatch, {
      contacts: [
        { email: "ok1@x.io", name: "1" },
        { email: "ok2@x.io", name: "2" },
        { email: "broken.example.com", name: "3" },
        { email: "also-bad", name: "4" },
      ],
    }),
  );
  expect(data).toEqual({ code: "INVALID_EMAIL", index: 2 });
  expect(await t.query(api.contacts.count, {})).toBe(1);
});

test("more than 100 items is rejected; exactly 100 is fine", async () => {
  const t = convexTest(schema, modules);
  const many = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({ email: `${prefix}${i}@x.io`, name: `${i}` }));
  expect(await errorData(t.mutation(api.contacts.importBatch, { contacts: many(101, "a") }))).toEqual({
    code: "TOO_MANY",
    max: 100,
  });
  expect(await t.query(api.contacts.count, {})).toBe(0);
  expect(await t.mutation(api.contacts.importBatch, { contacts: many(100, "b") })).toHaveLength(100);
  expect(await t.query(api.contacts.count, {})).toBe(100);
});
