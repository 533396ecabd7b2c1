import { convexTest } from "convex-test";
import { beforeEach, expect, test, vi } from "vitest";
import { getFunctionName } from "convex/server";
import { ConvexError } from "convex/values";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { useClaimHandle, useHandleAvailable } from "./src/handles";
const modules = import.meta.glob("./convex/**/*.*s");

const mocks = vi.hoisted(() => ({ useQuery: vi.fn(), useMutation: vi.fn() }));
vi.mock("convex/react", () => ({ useQuery: mocks.useQuery, useMutation: mocks.useMutation }));

beforeEach(() => {
  mocks.useQuery.mockReset();
  mocks.useMutation.mockReset();
});

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    return ((error as ConvexError<any>).data as { code?: unknown }).code;
  }
  throw new Error("expected the call to throw");
}

test("backend: claimHandle stores users and byHandle finds them", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.users.claimHandle, { handle: "ada_99", displayName: "Ada" });
  expect(await t.run(async (ctx) => await ctx.db.get("users", id))).toMatchObject({ handle: "ada_99", displayName: "Ada" });
  expect(await t.query(api.users.byHandle, { handle: "ada_99" })).toEqual({ displayName: "Ada" });
  expect(await t.query(api.users.byHandle, { handle: "bob" })).toBeNull();
});

test("backend: claimHandle rejects invalid and taken handles with ConvexError codes", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.users.claimHandle, { handle: "ada", displayName: "Ada" });
  expect(await codeOf(t.mutation(api.users.claimHandle, { handle: "ada", displayName: "Other" }))).toBe("HANDLE_TAKEN");
  for (const handle of ["ab", "Ada", "has space", "x".repeat(21), ""]) {
    expect(await codeOf(t.mutation(api.users.claimHandle, { handle, displayName: "X" })), handle).toBe("INVALID_HANDLE");
  }
  expect(await t.run(async (ctx) => await ctx.db.query("users").collect())).toHaveLength(1);
});

test("useHandleAvailable skips short handles", () => {
  mocks.useQuery.mockReturnValue(undefined);
  expect(useHandleAvailable("")).toBeUndefined();
  expect(useHandleAvailable("ab")).toBeUndefined();
  expect(mocks.useQuery).toHaveBeenCalledTimes(2);
  for (const call of mocks.useQuery.mock.calls) {
    expect(getFunctionName(call[0])).toBe("users:byHandle");
    expect(call[1]).toBe("skip");
  }
});

test("useHandleAvailable queries longer handles and maps the result", () => {
  mocks.useQuery.mockReturnValue(null);
  expect(useHandleAvailable("ada")).toBe(true);
  expect(getFunctionName(mocks.useQuery.mock.calls[0][0])).toBe("users:byHandle");
  expect(mocks.useQuery.mock.calls[0][1]).toEqual({ handle: "ada" });
  mocks.useQuery.mockReturnValue({ displayName: "Ada" });
  expect(useHandleAvailable("ada")).toBe(false);
  mocks.useQuery.mockReturnValue(undefined);
  expect(useHandleAvailable("ada_99")).toBeUndefined();
  expect(mocks.useQuery.mock.calls[2][1]).toEqual({ handle: "ada_99" });
  expect(mocks.useQuery).toHaveBeenCalledTimes(3);
});

test("useClaimHandle claims through api.users.claimHandle and maps ConvexError codes", async () => {
  const t = convexTest(schema, modules);
  mocks.useMutation.mockImplementation((ref: any) => (args: any) => t.mutation(ref, args));
  const claim = useClaimHandle();
  expect(mocks.useMutation).toHaveBeenCalledTimes(1);
  expect(getFunctionName(mocks.useMutation.mock.calls[0][0])).toBe("users:claimHandle");
  const first = await claim("ada", "Ada");
  expect(first.ok).toBe(true);
  const id = (first as { id: unknown }).id;
  expect(await t.run(async (ctx) => (await ctx.db.query("users").collect()).map((u) => u._id))).toEqual([id]);
  expect(await claim("ada", "Again")).toEqual({ ok: false, code: "HANDLE_TAKEN" });
  expect(await claim("A!", "Bad")).toEqual({ ok: false, code: "INVALID_HANDLE" });
});

test("useClaimHandle re-throws errors that are not ConvexError", async () => {
  const boom = new Error("offline");
  mocks.useMutation.mockReturnValue(async () => {
    throw boom;
  });
  const claim = useClaimHandle();
  await expect(claim("ada", "Ada")).rejects.toBe(boom);
});
