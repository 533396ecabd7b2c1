import { convexTest } from "convex-test";
import presenceTest from "@convex-dev/presence/test";
import { afterEach, expect, test, vi } from "vitest";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

function setup() {
  const t = convexTest(undefined, modules);
  presenceTest.register(t, "presence");
  return t;
}

afterEach(() => {
  vi.useRealTimers();
});

test("heartbeat returns the room's and the session's tokens, and list shows the user online", async () => {
  const t = setup();
  const tokens = await t.mutation(api.presence.heartbeat, { roomId: "lobby", userId: "ada", sessionId: "s1", interval: 10000 });
  expect(typeof tokens.roomToken).toBe("string");
  expect(typeof tokens.sessionToken).toBe("string");
  const users = await t.query(api.presence.list, { roomToken: tokens.roomToken });
  expect(users).toHaveLength(1);
  expect(users[0]).toMatchObject({ userId: "ada", online: true });
});

test("onlineUsers lists the room's online users sorted, each once, and only that room's", async () => {
  const t = setup();
  await t.mutation(api.presence.heartbeat, { roomId: "lobby", userId: "cy", sessionId: "c1", interval: 10000 });
  await t.mutation(api.presence.heartbeat, { roomId: "lobby", userId: "ada", sessionId: "a1", interval: 10000 });
  await t.mutation(api.presence.heartbeat, { roomId: "lobby", userId: "ada", sessionId: "a2", interval: 10000 });
  await t.mutation(api.presence.heartbeat, { roomId: "other", userId: "bob", sessionId: "b1", interval: 10000 });
  expect(await t.query(api.presence.onlineUsers, { roomId: "lobby" })).toEqual(["ada", "cy"]);
  expect(await t.query(api.presence.onlineUsers, { roomId: "other" })).toEqual(["bob"]);
  expect(await t.query(api.presence.onlineUsers, { roomId: "empty" })).toEqual([]);
});

test("disconnect takes the user offline in list and out of onlineUsers", async () => {
  const t = setup();
  const ada = await t.mutation(api.presence.heartbeat, { roomId: "lobby", userId: "ada", sessionId: "a1", interval: 10000 });
  await t.mutation(api.presence.heartbeat, { roomId: "lobby", userId: "bob", sessionId: "b1", interval: 10000 });
  expect(await t.mutation(api.presence.disconnect, { sessionToken: ada.sessionToken })).toBeNull();
  expect(await t.query(api.presence.onlineUsers, { roomId: "lobby" })).toEqual(["bob"]);
  const users = await t.query(api.presence.list, { roomToken: ada.roomToken });
  expect(users.find((u: { userId: string }) => u.userId === "ada")).toMatchObject({ online: false });
  expect(users.find((u: { userId: string }) => u.userId === "bob")).toMatchObject({ online: true });
});

test("a session that stops sending heartbeats goes offline once its timeout has run", async () => {
  vi.useFakeTimers();
  const t = setup();
  await t.mutation(api.presence.heartbeat, { roomId: "lobby", userId: "ada", sessionId: "a1", interval: 1000 });
  expect(await t.query(api.presence.onlineUsers, { roomId: "lobby" })).toEqual(["ada"]);
  vi.advanceTimersByTime(60_000);
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.presence.onlineUsers, { roomId: "lobby" })).toEqual([]);
});
