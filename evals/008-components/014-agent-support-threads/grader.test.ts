import { convexTest } from "convex-test";
import agentTest from "@convex-dev/agent/test";
import { expect, test } from "vitest";
import { api, components } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

function setup() {
  const t = convexTest(undefined, modules);
  agentTest.register(t, "agent");
  return t;
}

test("startConversation creates a thread owned by the user, with its title", async () => {
  const t = setup();
  const threadId = await t.mutation(api.support.startConversation, { userId: "u1", title: "Billing" });
  expect(typeof threadId).toBe("string");
  const thread = await t.query(components.agent.threads.getThread, { threadId });
  expect(thread).toMatchObject({ userId: "u1", title: "Billing" });
});

test("threadsOf lists the user's threads newest first, and only theirs", async () => {
  const t = setup();
  const first = await t.mutation(api.support.startConversation, { userId: "u1", title: "Billing" });
  await t.mutation(api.support.startConversation, { userId: "u2", title: "Other user" });
  const second = await t.mutation(api.support.startConversation, { userId: "u1", title: "Shipping" });
  expect(await t.query(api.support.threadsOf, { userId: "u1" })).toEqual([
    { threadId: second, title: "Shipping" },
    { threadId: first, title: "Billing" },
  ]);
  expect(await t.query(api.support.threadsOf, { userId: "nobody" })).toEqual([]);
});

test("ask saves the prompt as a user message in the thread, oldest first", async () => {
  const t = setup();
  const threadId = await t.mutation(api.support.startConversation, { userId: "u1", title: "Billing" });
  const id1 = await t.mutation(api.support.ask, { threadId, prompt: "Where is my invoice?" });
  const id2 = await t.mutation(api.support.ask, { threadId, prompt: "And the receipt?" });
  expect(typeof id1).toBe("string");
  expect(id1).not.toEqual(id2);
  expect(await t.query(api.support.conversation, { threadId })).toEqual([
    { role: "user", text: "Where is my invoice?" },
    { role: "user", text: "And the receipt?" },
  ]);
});

test("ask schedules the reply action once per prompt, to run now, with the saved message", async () => {
  const t = setup();
  const threadId = await t.mutation(api.support.startConversation, { userId: "u1", title: "Billing" });
  const before = Date.now();
  const messageId = await t.mutation(api.support.ask, { threadId, prompt: "Hello?" });
  const scheduled = await t.run(async (ctx) => await ctx.db.system.query("_scheduled_functions").collect());
  expect(scheduled).toHaveLength(1);
  expect(scheduled[0].name).toMatch(/^support(\.js)?:reply$/);
  expect(scheduled[0].args).toEqual([{ threadId, promptMessageId: messageId }]);
  expect(scheduled[0].scheduledTime).toBeLessThanOrEqual(Date.now() + 1000);
  expect(scheduled[0].scheduledTime).toBeGreaterThanOrEqual(before - 1000);
});

test("conversation shows an assistant message saved in the thread, in order", async () => {
  const t = setup();
  const threadId = await t.mutation(api.support.startConversation, { userId: "u1", title: "Billing" });
  await t.mutation(api.support.ask, { threadId, prompt: "Hi" });
  await t.mutation(components.agent.messages.addMessages, {
    threadId,
    messages: [{ message: { role: "assistant", content: "Hello! How can I help?" } }],
  });
  expect(await t.query(api.support.conversation, { threadId })).toEqual([
    { role: "user", text: "Hi" },
    { role: "assistant", text: "Hello! How can I help?" },
  ]);
});
