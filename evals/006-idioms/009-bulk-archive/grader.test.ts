import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

afterEach(() => {
  vi.useRealTimers();
});

test("postMany inserts every text in order and returns the ids in order", async () => {
  const t = convexTest(schema, modules);
  const texts = Array.from({ length: 25 }, (_, i) => `m${i}`);
  const ids = await t.mutation(api.messages.postMany, { channel: "general", texts });
  expect(ids).toHaveLength(25);
  const docs = await t.run(async (ctx) => await Promise.all(ids.map((id) => ctx.db.get("messages", id))));
  expect(docs.map((d) => d?.text)).toEqual(texts);
  expect(docs.every((d) => d?.channel === "general" && d.archived === false)).toBe(true);
  expect(await t.query(api.messages.listActive, { channel: "general" })).toEqual(texts);
  expect(await t.mutation(api.messages.postMany, { channel: "general", texts: [] })).toEqual([]);
});

test("archiveChannel archives every active message of the channel only", async () => {
  vi.useFakeTimers();
  const t = convexTest(schema, modules);
  await t.mutation(api.messages.postMany, { channel: "general", texts: Array.from({ length: 40 }, (_, i) => `g${i}`) });
  await t.mutation(api.messages.postMany, { channel: "random", texts: ["r1", "r2"] });
  expect(await t.mutation(api.messages.archiveChannel, { channel: "general" })).toBe(40);
  const general = await t.run(async (ctx) =>
    await ctx.db.query("messages").withIndex("by_channel_and_archived", (q) => q.eq("channel", "general")).collect(),
  );
  expect(general).toHaveLength(40);
  expect(general.every((m) => m.archived)).toBe(true);
  expect(await t.query(api.messages.listActive, { channel: "general" })).toEqual([]);
  expect(await t.query(api.messages.listActive, { channel: "random" })).toEqual(["r1", "r2"]);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
});

test("archiveChannel schedules one notice with the count; nothing when there is nothing to archive", async () => {
  vi.useFakeTimers();
  const t = convexTest(schema, modules);
  await t.mutation(api.messages.postMany, { channel: "general", texts: ["a", "b", "c"] });
  expect(await t.mutation(api.messages.archiveChannel, { channel: "general" })).toBe(3);
  const jobs = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
  expect(jobs).toHaveLength(1);
  expect(jobs[0].name).toMatch(/^messages(\.js)?:recordNotice$/);
  expect(jobs[0].args).toEqual([{ channel: "general", count: 3 }]);
  expect(await t.query(api.messages.listNotices, {})).toEqual([]);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.messages.listNotices, {})).toEqual(["Archived 3 messages in #general"]);
  expect(await t.mutation(api.messages.archiveChannel, { channel: "general" })).toBe(0);
  expect(await t.mutation(api.messages.archiveChannel, { channel: "empty" })).toBe(0);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.messages.listNotices, {})).toEqual(["Archived 3 messages in #general"]);
});

test("recordNotice is internal and returns null", async () => {
  const t = convexTest(schema, modules);
  expect(await t.mutation(internal.messages.recordNotice, { channel: "dev", count: 2 })).toBeNull();
  expect(await t.query(api.messages.listNotices, {})).toEqual(["Archived 2 messages in #dev"]);
});
