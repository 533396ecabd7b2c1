import { convexTest } from "convex-test";
import { beforeEach, expect, test, vi } from "vitest";
import { getFunctionName } from "convex/server";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { useMessages } from "./src/useMessages";
const modules = import.meta.glob("./convex/**/*.*s");

const mocks = vi.hoisted(() => ({ useQuery: vi.fn(), useMutation: vi.fn() }));
vi.mock("convex/react", () => ({ useQuery: mocks.useQuery, useMutation: mocks.useMutation }));

beforeEach(() => {
  mocks.useQuery.mockReset();
  mocks.useMutation.mockReset();
});

test("backend: send stores messages per channel, list returns them oldest first", async () => {
  const t = convexTest(schema, modules);
  const a = await t.mutation(api.messages.send, { channel: "general", body: "hi" });
  await t.mutation(api.messages.send, { channel: "random", body: "other" });
  const b = await t.mutation(api.messages.send, { channel: "general", body: "there" });
  expect(await t.query(api.messages.list, { channel: "general" })).toEqual([
    { _id: a, body: "hi" },
    { _id: b, body: "there" },
  ]);
  expect(await t.query(api.messages.list, { channel: "empty" })).toEqual([]);
});

test("backend: send rejects empty or whitespace bodies", async () => {
  const t = convexTest(schema, modules);
  await expect(t.mutation(api.messages.send, { channel: "general", body: "" })).rejects.toThrow();
  await expect(t.mutation(api.messages.send, { channel: "general", body: "  \n" })).rejects.toThrow();
  expect(await t.query(api.messages.list, { channel: "general" })).toEqual([]);
});

test("useMessages subscribes with useQuery(api.messages.list, { channel })", () => {
  const rows = [{ _id: "m1", body: "hi" }];
  mocks.useQuery.mockReturnValue(rows);
  mocks.useMutation.mockReturnValue(vi.fn());
  const result = useMessages("general");
  expect(mocks.useQuery).toHaveBeenCalledTimes(1);
  const [ref, args] = mocks.useQuery.mock.calls[0];
  expect(getFunctionName(ref)).toBe("messages:list");
  expect(args).toEqual({ channel: "general" });
  expect(result.messages).toBe(rows);
  useMessages("dev-ops");
  expect(mocks.useQuery).toHaveBeenCalledTimes(2);
  expect(getFunctionName(mocks.useQuery.mock.calls[1][0])).toBe("messages:list");
  expect(mocks.useQuery.mock.calls[1][1]).toEqual({ channel: "dev-ops" });
});

test("useMessages passes through undefined while loading", () => {
  mocks.useQuery.mockReturnValue(undefined);
  mocks.useMutation.mockReturnValue(vi.fn());
  expect(useMessages("general").messages).toBeUndefined();
});

test("send calls useMutation(api.messages.send) with { channel, body }", async () => {
  const mutate = vi.fn(async () => "new-id");
  mocks.useQuery.mockReturnValue(undefined);
  mocks.useMutation.mockReturnValue(mutate);
  const { send } = useMessages("random");
  expect(mocks.useMutation).toHaveBeenCalledTimes(1);
  expect(getFunctionName(mocks.useMutation.mock.calls[0][0])).toBe("messages:send");
  expect(mutate).not.toHaveBeenCalled();
  await expect(send("hello")).resolves.toBe("new-id");
  expect(mutate).toHaveBeenCalledWith({ channel: "random", body: "hello" });
});
