import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("latest returns messages newest first", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.messages.send, { channel: "general", body: "one" });
  await t.mutation(api.messages.send, { channel: "general", body: "two" });
  await t.mutation(api.messages.send, { channel: "general", body: "three" });
  const msgs = await t.query(api.messages.latest, { channel: "general" });
  expect(msgs.map((m) => m.body)).toEqual(["three", "two", "one"]);
  expect(msgs[0]).toMatchObject({ channel: "general", body: "three" });
});

test("latest returns at most 10 messages: the 10 most recent", async () => {
  const t = convexTest(schema, modules);
  for (let i = 1; i <= 15; i++) {
    await t.mutation(api.messages.send, { channel: "busy", body: `m${i}` });
  }
  const msgs = await t.query(api.messages.latest, { channel: "busy" });
  expect(msgs).toHaveLength(10);
  expect(msgs.map((m) => m.body)).toEqual([
    "m15", "m14", "m13", "m12", "m11", "m10", "m9", "m8", "m7", "m6",
  ]);
});

test("latest only includes the requested channel", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.messages.send, { channel: "a", body: "a1" });
  await t.mutation(api.messages.send, { channel: "b", body: "b1" });
  await t.mutation(api.messages.send, { channel: "a", body: "a2" });
  const msgs = await t.query(api.messages.latest, { channel: "a" });
  expect(msgs.map((m) => m.body)).toEqual(["a2", "a1"]);
  expect(await t.query(api.messages.latest, { channel: "empty" })).toEqual([]);
});

test("latest rejects a missing channel argument", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.query(api.messages.latest, {} as unknown as { channel: string }),
  ).rejects.toThrow();
});
