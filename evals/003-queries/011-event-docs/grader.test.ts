import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { FunctionReturnType } from "convex/server";

const modules = import.meta.glob("./convex/**/*.*s");

test("get returns the whole document, with or without room", async () => {
  const t = convexTest(schema, modules);
  const withRoom = await t.mutation(api.events.create, { title: "Keynote", startsAt: 100, kind: "talk", room: "A" });
  const noRoom = await t.mutation(api.events.create, { title: "Lab", startsAt: 200, kind: "workshop" });
  const a = await t.query(api.events.get, { eventId: withRoom });
  expect(a).toMatchObject({ _id: withRoom, title: "Keynote", startsAt: 100, kind: "talk", room: "A" });
  expect(typeof a?._creationTime).toBe("number");
  const b = await t.query(api.events.get, { eventId: noRoom });
  expect(b).toMatchObject({ _id: noRoom, title: "Lab", startsAt: 200, kind: "workshop" });
  expect(b !== null && "room" in b).toBe(false);
  await t.run(async (ctx) => {
    await ctx.db.delete("events", noRoom);
  });
  expect(await t.query(api.events.get, { eventId: noRoom })).toBeNull();
});

test("create rejects an unknown kind", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.events.create, { title: "x", startsAt: 1, kind: "party" as "talk" }),
  ).rejects.toThrow();
  const events = await t.run(async (ctx) => await ctx.db.query("events").collect());
  expect(events).toHaveLength(0);
});

test("upcoming returns at most 10 events from now on, earliest first", async () => {
  const t = convexTest(schema, modules);
  // Inserted in reverse start order on purpose.
  for (let i = 14; i >= 1; i--) {
    await t.mutation(api.events.create, { title: `e${i}`, startsAt: i * 10, kind: i % 2 ? "talk" : "workshop", ...(i % 3 ? {} : { room: `R${i}` }) });
  }
  const list = await t.query(api.events.upcoming, { now: 30 });
  expect(list.map((e) => e.title)).toEqual(["e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10", "e11", "e12"]);
  expect(list[0]).toMatchObject({ title: "e3", startsAt: 30, kind: "talk", room: "R3" });
  expect(typeof list[0]._creationTime).toBe("number");
  expect((await t.query(api.events.upcoming, { now: 131 })).map((e) => e.title)).toEqual(["e14"]);
  expect(await t.query(api.events.upcoming, { now: 1000 })).toEqual([]);
});

test("byKind lists one kind's titles by start time", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.events.create, { title: "late talk", startsAt: 300, kind: "talk" });
  await t.mutation(api.events.create, { title: "lab", startsAt: 150, kind: "workshop", room: "B" });
  await t.mutation(api.events.create, { title: "early talk", startsAt: 100, kind: "talk", room: "A" });
  expect(await t.query(api.events.byKind, { kind: "talk" })).toEqual(["early talk", "late talk"]);
  expect(await t.query(api.events.byKind, { kind: "workshop" })).toEqual(["lab"]);
});

test("schedule pages through all events by start time", async () => {
  const t = convexTest(schema, modules);
  for (const [title, startsAt] of [["c", 30], ["a", 10], ["e", 50], ["b", 20], ["d", 40]] as const) {
    await t.mutation(api.events.create, { title, startsAt, kind: "talk", ...(startsAt === 10 ? { room: "R" } : {}) });
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10; pages++) {
    const result: FunctionReturnType<typeof api.events.schedule> = await t.query(api.events.schedule, {
      paginationOpts: { numItems: 2, cursor },
    });
    expect(result.page.length).toBeLessThanOrEqual(2);
    if (pages === 0) {
      expect(result.page[0]).toMatchObject({ title: "a", startsAt: 10, kind: "talk", room: "R" });
      expect(typeof result.page[0]._creationTime).toBe("number");
      expect(result.isDone).toBe(false);
    }
    seen.push(...result.page.map((e) => e.title));
    if (result.isDone) break;
    cursor = result.continueCursor;
  }
  expect(seen).toEqual(["a", "b", "c", "d", "e"]);
});
