import { convexTest } from "convex-test";
import { beforeEach, expect, test, vi } from "vitest";
import { getFunctionName } from "convex/server";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { Id } from "./convex/_generated/dataModel";
import { describeProfile, useProfile } from "./src/useProfile";
const modules = import.meta.glob("./convex/**/*.*s");

const mocks = vi.hoisted(() => ({ useQuery: vi.fn() }));
vi.mock("convex/react", () => ({ useQuery: mocks.useQuery }));

beforeEach(() => {
  mocks.useQuery.mockReset();
});

test("backend: create and getByName", async () => {
  const t = convexTest(schema, modules);
  const ada = await t.mutation(api.profiles.create, { name: "ada", bio: "writes code" });
  await t.mutation(api.profiles.create, { name: "bob", bio: "builds things" });
  expect(await t.query(api.profiles.getByName, { name: "ada" })).toEqual({ _id: ada, name: "ada", bio: "writes code" });
  expect(await t.query(api.profiles.getByName, { name: "nobody" })).toBeNull();
});

test("useProfile skips the query for null and the empty string", () => {
  mocks.useQuery.mockReturnValue(undefined);
  expect(useProfile(null)).toBeUndefined();
  expect(useProfile("")).toBeUndefined();
  expect(mocks.useQuery).toHaveBeenCalledTimes(2);
  for (const call of mocks.useQuery.mock.calls) {
    expect(getFunctionName(call[0])).toBe("profiles:getByName");
    expect(call.length).toBe(2);
    expect(call[1]).toBe("skip");
  }
});

test("useProfile queries by name and returns useQuery's value", () => {
  const row = { _id: "p1", name: "ada", bio: "writes code" };
  mocks.useQuery.mockReturnValue(row);
  expect(useProfile("ada")).toBe(row);
  expect(mocks.useQuery).toHaveBeenCalledTimes(1);
  expect(getFunctionName(mocks.useQuery.mock.calls[0][0])).toBe("profiles:getByName");
  expect(mocks.useQuery.mock.calls[0][1]).toEqual({ name: "ada" });
  mocks.useQuery.mockReturnValue(null);
  expect(useProfile("zed")).toBeNull();
  expect(mocks.useQuery.mock.calls[1][1]).toEqual({ name: "zed" });
});

test("describeProfile", () => {
  expect(describeProfile(undefined)).toBe("Loading...");
  expect(describeProfile(null)).toBe("No such profile");
  expect(describeProfile({ _id: "p1" as Id<"profiles">, name: "ada", bio: "writes code" })).toBe("ada: writes code");
});
