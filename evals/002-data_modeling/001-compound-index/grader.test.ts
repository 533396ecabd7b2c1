import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  await t.mutation(api.tasks.add, { project: "alpha", status: "todo", priority: 3, title: "a3" });
  await t.mutation(api.tasks.add, { project: "alpha", status: "todo", priority: 1, title: "a1" });
  await t.mutation(api.tasks.add, { project: "alpha", status: "done", priority: 0, title: "a0-done" });
  await t.mutation(api.tasks.add, { project: "alpha", status: "todo", priority: 2, title: "a2" });
  await t.mutation(api.tasks.add, { project: "beta", status: "todo", priority: 0, title: "b0" });
}

test("listByProjectAndStatus filters by project and status", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const titles = await t.query(api.tasks.listByProjectAndStatus, { project: "alpha", status: "todo" });
  expect([...titles].sort()).toEqual(["a1", "a2", "a3"]);
  expect(
    await t.query(api.tasks.listByProjectAndStatus, { project: "alpha", status: "done" }),
  ).toEqual(["a0-done"]);
  expect(
    await t.query(api.tasks.listByProjectAndStatus, { project: "beta", status: "doing" }),
  ).toEqual([]);
});

test("listByProjectAndStatus sorts by priority ascending", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(
    await t.query(api.tasks.listByProjectAndStatus, { project: "alpha", status: "todo" }),
  ).toEqual(["a1", "a2", "a3"]);
});

test("countByProject counts tasks across all statuses", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  expect(await t.query(api.tasks.countByProject, { project: "alpha" })).toBe(4);
  expect(await t.query(api.tasks.countByProject, { project: "beta" })).toBe(1);
  expect(await t.query(api.tasks.countByProject, { project: "gamma" })).toBe(0);
});

test("invalid status is rejected", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.tasks.add, {
      project: "alpha",
      status: "blocked" as unknown as "todo",
      priority: 1,
      title: "x",
    }),
  ).rejects.toThrow();
  await expect(
    t.query(api.tasks.listByProjectAndStatus, {
      project: "alpha",
      status: "blocked" as unknown as "todo",
    }),
  ).rejects.toThrow();
});

test("the schema defines the compound index", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const viaIndex = await t.run(async (ctx) =>
    ctx.db
      .query("tasks")
      .withIndex("by_project_status_priority", (q) =>
        q.eq("project", "alpha").eq("status", "todo").gt("priority", 1),
      )
      .collect(),
  );
  expect(viaIndex.map((task) => task.title)).toEqual(["a2", "a3"]);
});
