import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("send inserts a message and returns its id", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.messages.send, { author: "ada", body: "hello" });
  const doc = await t.run(async (ctx) => await ctx.db.get("messages", id));
  expect(doc).toMatchObject({ author: "ada", body: "hello" });
});

test("list returns all messages oldest first", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.messages.send, { author: "ada", body: "first" });
  await t.mutation(api.messages.send, { author: "bob", body: "second" });
  await t.mutation(api.messages.send, { author: "ada", body: "third" });
  const messages = await t.query(api.messages.list, {});
  expect(messages.map((m) => m.body)).toEqual(["first", "second", "third"]);
  expect(messages[1]).toMatchObject({ author: "bob", body: "second" });
  expect(typeof messages[0]._id).toBe("string");
  expect(typeof messages[0]._creationTime).toBe("number");
});

test("list returns an empty array when there are no messages", async () => {
  const t = convexTest(schema, modules);
  expect(await t.query(api.messages.list, {})).toEqual([]);
});

test("send rejects non-string arguments", async () => {
  const t = convexTest(schema, modules);
  await expect(
    t.mutation(api.messages.send, { author: "ada", body: 42 as unknown as string }),
  ).rejects.toThrow();
  await expect(
    t.mutation(api.messages.send, { author: 7 as unknown as string, body: "x" }),
  ).rejects.toThrow();
  expect(await t.query(api.messages.list, {})).toEqual([]);
});
