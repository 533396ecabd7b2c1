import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("create stores archivedAt as null and omits a missing nickname", async () => {
  const t = convexTest(schema, modules);
  const contactId = await t.mutation(api.contacts.create, { name: "Ann" });
  const doc = await t.run(async (ctx) => await ctx.db.get("contacts", contactId));
  expect(doc).not.toBeNull();
  expect("archivedAt" in doc!).toBe(true);
  expect(doc!.archivedAt).toBeNull();
  expect("nickname" in doc!).toBe(false);
  const withNick = await t.mutation(api.contacts.create, { name: "Bob", nickname: "B" });
  expect(await t.query(api.contacts.get, { contactId: withNick })).toMatchObject({
    _id: withNick,
    name: "Bob",
    nickname: "B",
    archivedAt: null,
  });
});

test("archive sets a timestamp and restore sets it back to null", async () => {
  const t = convexTest(schema, modules);
  const contactId = await t.mutation(api.contacts.create, { name: "Cy", nickname: "C" });
  const before = Date.now();
  expect(await t.mutation(api.contacts.archive, { contactId })).toBeNull();
  const archived = await t.query(api.contacts.get, { contactId });
  expect(typeof archived!.archivedAt).toBe("number");
  expect(archived!.archivedAt!).toBeGreaterThanOrEqual(before - 1000);
  expect(archived!.nickname).toBe("C");
  expect(await t.mutation(api.contacts.restore, { contactId })).toBeNull();
  const restored = await t.run(async (ctx) => await ctx.db.get("contacts", contactId));
  expect("archivedAt" in restored!).toBe(true);
  expect(restored!.archivedAt).toBeNull();
});

test("listActive returns contacts with a null archivedAt, oldest first", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.contacts.create, { name: "a" });
  const b = await t.mutation(api.contacts.create, { name: "b" });
  await t.mutation(api.contacts.create, { name: "c" });
  await t.mutation(api.contacts.archive, { contactId: b });
  expect(await t.query(api.contacts.listActive, {})).toEqual(["a", "c"]);
  await t.mutation(api.contacts.restore, { contactId: b });
  expect(await t.query(api.contacts.listActive, {})).toEqual(["a", "b", "c"]);
});

test("archive and restore throw for a missing contact; get returns null", async () => {
  const t = convexTest(schema, modules);
  const contactId = await t.mutation(api.contacts.create, { name: "gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("contacts", contactId);
  });
  await expect(t.mutation(api.contacts.archive, { contactId })).rejects.toThrow();
  await expect(t.mutation(api.contacts.restore, { contactId })).rejects.toThrow();
  expect(await t.query(api.contacts.get, { contactId })).toBeNull();
});

test("the schema requires archivedAt and rejects a null nickname", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.run(async (ctx) => {
      await ctx.db.insert("contacts", { name: "x" } as unknown as { name: string; archivedAt: null });
    }),
  ).rejects.toThrow();
  await expect(
    t.run(async (ctx) => {
      await ctx.db.insert("contacts", {
        name: "x",
        nickname: null as unknown as string,
        archivedAt: null,
      });
    }),
  ).rejects.toThrow();
});
