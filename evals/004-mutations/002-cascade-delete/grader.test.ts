import { convexTest } from "convex-test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

async function seed(t: ReturnType<typeof convexTest>) {
  const p1 = await t.mutation(api.projects.createProject, { name: "one" });
  const p2 = await t.mutation(api.projects.createProject, { name: "two" });
  await t.mutation(api.projects.addTask, { projectId: p1, title: "1a" });
  await t.mutation(api.projects.addTask, { projectId: p1, title: "1b" });
  await t.mutation(api.projects.addTask, { projectId: p2, title: "2a" });
  await t.mutation(api.projects.addTask, { projectId: p1, title: "1c" });
  return { p1, p2 };
}

test("deleteProjectTasks deletes only that project's tasks and returns the count", async () => {
  const t = convexTest(schema, modules);
  const { p1 } = await seed(t);
  expect(await t.mutation(internal.projects.deleteProjectTasks, { projectId: p1 })).toBe(3);
  const titles = await t.run(async (ctx) =>
    (await ctx.db.query("tasks").collect()).map((task) => task.title),
  );
  expect(titles).toEqual(["2a"]);
});

test("deleteProject deletes the project now and its tasks via the scheduled function", async () => {
  const t = convexTest(schema, modules);
  const { p1, p2 } = await seed(t);
  expect(await t.mutation(api.projects.deleteProject, { projectId: p1 })).toBeNull();
  const projectNow = await t.run(async (ctx) => await ctx.db.get("projects", p1));
  expect(projectNow).toBeNull();
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  const tasks = await t.run(async (ctx) => await ctx.db.query("tasks").collect());
  expect(tasks.map((task) => task.title)).toEqual(["2a"]);
  expect(tasks[0].projectId).toBe(p2);
  const other = await t.run(async (ctx) => await ctx.db.get("projects", p2));
  expect(other?.name).toBe("two");
});

test("deleteProject schedules the task cleanup", async () => {
  const t = convexTest(schema, modules);
  const { p1 } = await seed(t);
  await t.mutation(api.projects.deleteProject, { projectId: p1 });
  const scheduled = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0].args[0]).toEqual({ projectId: p1 });
});

test("deleteProject and addTask throw for a missing project", async () => {
  const t = convexTest(schema, modules);
  const { p1 } = await seed(t);
  await t.mutation(api.projects.deleteProject, { projectId: p1 });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  await expect(t.mutation(api.projects.deleteProject, { projectId: p1 })).rejects.toThrow();
  await expect(t.mutation(api.projects.addTask, { projectId: p1, title: "late" })).rejects.toThrow();
  const tasks = await t.run(async (ctx) => await ctx.db.query("tasks").collect());
  expect(tasks).toHaveLength(1);
});
