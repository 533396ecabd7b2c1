import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { Id } from "./convex/_generated/dataModel";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  // Inserted out of dueAt order on purpose.
  const ids: Record<string, Id<"tasks">> = {};
  const rows: Array<[string, string, number, number]> = [
    ["ann", "late-report", 2, 50],
    ["ann", "old-bill", 1, 20],
    ["bob", "bob-late", 3, 10],
    ["ann", "due-now", 3, 100],
    ["ann", "soon-low", 1, 110],
    ["ann", "soon-high", 5, 120],
    ["ann", "later-high", 4, 140],
    ["ann", "done-high", 5, 115],
    ["ann", "much-later", 3, 200],
    ["ann", "last", 3, 300],
  ];
  for (const [assignee, title, priority, dueAt] of rows) {
    ids[title] = await t.mutation(api.tasks.create, { assignee, title, priority, dueAt });
  }
  return ids;
}

test("overdue lists open tasks due strictly before now, earliest first", async () => {
  const t = convexTest(schema, modules);
  const ids = await seed(t);
  expect(await t.query(api.tasks.overdue, { assignee: "ann", now: 100 })).toEqual(["old-bill", "late-report"]);
  await t.mutation(api.tasks.complete, { taskId: ids["old-bill"] });
  expect(await t.query(api.tasks.overdue, { assignee: "ann", now: 101 })).toEqual(["late-report", "due-now"]);
  expect(await t.query(api.tasks.overdue, { assignee: "bob", now: 100 })).toEqual(["bob-late"]);
  expect(await t.query(api.tasks.overdue, { assignee: "ann", now: 20 })).toEqual([]);
});

test("nextUp returns at most 3 matching tasks due strictly after now", async () => {
  const t = convexTest(schema, modules);
  const ids = await seed(t);
  await t.mutation(api.tasks.complete, { taskId: ids["done-high"] });
  expect(await t.query(api.tasks.nextUp, { assignee: "ann", now: 100, minPriority: 3 })).toEqual([
    "soon-high",
    "later-high",
    "much-later",
  ]);
  expect(await t.query(api.tasks.nextUp, { assignee: "ann", now: 100, minPriority: 1 })).toEqual([
    "soon-low",
    "soon-high",
    "later-high",
  ]);
});

test("nextUp: tasks failing a condition never take one of the 3 places", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  // done-high is still open here; the low-priority soon-low must be skipped, not counted.
  expect(await t.query(api.tasks.nextUp, { assignee: "ann", now: 100, minPriority: 4 })).toEqual([
    "done-high",
    "soon-high",
    "later-high",
  ]);
  expect(await t.query(api.tasks.nextUp, { assignee: "ann", now: 200, minPriority: 1 })).toEqual(["last"]);
  expect(await t.query(api.tasks.nextUp, { assignee: "ann", now: 100, minPriority: 9 })).toEqual([]);
});

test("complete marks a task done and rejects a missing task", async () => {
  const t = convexTest(schema, modules);
  const ids = await seed(t);
  expect(await t.mutation(api.tasks.complete, { taskId: ids["last"] })).toBeNull();
  const doc = await t.run(async (ctx) => await ctx.db.query("tasks").collect());
  expect(doc.find((d) => d.title === "last")?.done).toBe(true);
  expect(doc.filter((d) => d.done)).toHaveLength(1);
  await t.run(async (ctx) => {
    await ctx.db.delete("tasks", ids["last"]);
  });
  await expect(t.mutation(api.tasks.complete, { taskId: ids["last"] })).rejects.toThrow();
});
