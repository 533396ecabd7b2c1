import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { Id } from "./convex/_generated/dataModel";

const modules = import.meta.glob("./convex/**/*.*s");

test("record stores an event with all fields and get returns it", async () => {
  const t = convexTest(schema, modules);
  const userId = await t.mutation(api.users.create, { name: "ada" });
  const eventId = await t.mutation(api.events.record, {
    userId,
    kind: "purchase",
    amount: 12.5,
    tags: ["promo", "mobile"],
  });
  const event = await t.query(api.events.get, { eventId });
  expect(event).toMatchObject({
    _id: eventId,
    userId,
    kind: "purchase",
    amount: 12.5,
    tags: ["promo", "mobile"],
  });
});

test("amount is optional and absent when not given", async () => {
  const t = convexTest(schema, modules);
  const userId = await t.mutation(api.users.create, { name: "bob" });
  const eventId = await t.mutation(api.events.record, { userId, kind: "view", tags: [] });
  const event = await t.query(api.events.get, { eventId });
  expect(event).not.toBeNull();
  expect(event?.kind).toBe("view");
  expect(event?.tags).toEqual([]);
  expect(event !== null && "amount" in event).toBe(false);
});

test("get returns null for a deleted event", async () => {
  const t = convexTest(schema, modules);
  const userId = await t.mutation(api.users.create, { name: "cy" });
  const eventId = await t.mutation(api.events.record, { userId, kind: "click", tags: ["a"] });
  await t.run(async (ctx) => {
    await ctx.db.delete("events", eventId);
  });
  expect(await t.query(api.events.get, { eventId })).toBeNull();
});

test("record rejects an unknown kind and a non-number amount", async () => {
  const t = convexTest(schema, modules);
  const userId = await t.mutation(api.users.create, { name: "dee" });
  await expect(
    t.mutation(api.events.record, {
      userId,
      kind: "hover" as unknown as "click",
      tags: [],
    }),
  ).rejects.toThrow();
  await expect(
    t.mutation(api.events.record, {
      userId,
      kind: "click",
      amount: "3" as unknown as number,
      tags: [],
    }),
  ).rejects.toThrow();
  await expect(
    t.mutation(api.events.record, {
      userId,
      kind: "click",
    } as unknown as { userId: Id<"users">; kind: "click"; tags: string[] }),
  ).rejects.toThrow();
});

test("record rejects an ID from the wrong table", async () => {
  const t = convexTest(schema, modules);
  const userId = await t.mutation(api.users.create, { name: "eve" });
  const eventId = await t.mutation(api.events.record, { userId, kind: "click", tags: [] });
  await expect(
    t.mutation(api.events.record, {
      userId: eventId as unknown as Id<"users">,
      kind: "click",
      tags: [],
    }),
  ).rejects.toThrow();
  const count = await t.run(async (ctx) => (await ctx.db.query("events").collect()).length);
  expect(count).toBe(1);
});
