import { convexTest } from "convex-test";
import { ConvexError } from "convex/values";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function errorData(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConvexError);
    return (error as { data: unknown }).data;
  }
  throw new Error("expected the call to throw");
}

function fields(doc: Record<string, unknown> | null) {
  if (doc === null) return null;
  const { _id, _creationTime, ...rest } = doc;
  void _id;
  void _creationTime;
  return rest;
}

test("create, assign and the happy path to closed", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.tickets.create, { title: "bug" });
  const created = await t.query(api.tickets.get, { ticketId: id });
  expect(fields(created)).toEqual({ title: "bug", status: "open" });
  expect(created?._id).toBe(id);
  expect(typeof created?._creationTime).toBe("number");
  expect(await t.mutation(api.tickets.assign, { ticketId: id, assignee: "ann" })).toBeNull();
  expect(fields(await t.query(api.tickets.get, { ticketId: id }))).toEqual({ title: "bug", status: "open", assignee: "ann" });
  await t.mutation(api.tickets.move, { ticketId: id, to: "in_progress" });
  const before = Date.now();
  await t.mutation(api.tickets.move, { ticketId: id, to: "closed" });
  const closed = await t.query(api.tickets.get, { ticketId: id });
  expect(closed).toMatchObject({ title: "bug", status: "closed", assignee: "ann" });
  expect(closed?.closedAt).toBeGreaterThanOrEqual(before - 1000);
  expect(closed?.closedAt).toBeLessThanOrEqual(Date.now() + 1000);
});

test("moving back to open removes the assignee only", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.tickets.create, { title: "bug" });
  await t.mutation(api.tickets.assign, { ticketId: id, assignee: "ann" });
  await t.mutation(api.tickets.move, { ticketId: id, to: "in_progress" });
  await t.mutation(api.tickets.move, { ticketId: id, to: "open" });
  expect(fields(await t.query(api.tickets.get, { ticketId: id }))).toEqual({ title: "bug", status: "open" });
});

test("invalid transitions throw with from/to and change nothing", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.tickets.create, { title: "bug" });
  await t.mutation(api.tickets.assign, { ticketId: id, assignee: "ann" });
  expect(await errorData(t.mutation(api.tickets.move, { ticketId: id, to: "closed" }))).toEqual({
    code: "INVALID_TRANSITION",
    from: "open",
    to: "closed",
  });
  expect(await errorData(t.mutation(api.tickets.move, { ticketId: id, to: "open" }))).toEqual({
    code: "INVALID_TRANSITION",
    from: "open",
    to: "open",
  });
  await t.mutation(api.tickets.move, { ticketId: id, to: "in_progress" });
  await t.mutation(api.tickets.move, { ticketId: id, to: "closed" });
  expect(await errorData(t.mutation(api.tickets.move, { ticketId: id, to: "in_progress" }))).toEqual({
    code: "INVALID_TRANSITION",
    from: "closed",
    to: "in_progress",
  });
  expect(await t.query(api.tickets.get, { ticketId: id })).toMatchObject({ status: "closed", assignee: "ann" });
});

test("reset replaces the whole document", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.tickets.create, { title: "bug" });
  await t.mutation(api.tickets.assign, { ticketId: id, assignee: "ann" });
  await t.mutation(api.tickets.move, { ticketId: id, to: "in_progress" });
  await t.mutation(api.tickets.move, { ticketId: id, to: "closed" });
  expect(await t.mutation(api.tickets.reset, { ticketId: id, title: "again" })).toBeNull();
  const doc = await t.query(api.tickets.get, { ticketId: id });
  expect(fields(doc)).toEqual({ title: "again", status: "open" });
  expect(doc?._id).toBe(id);
});

test("missing tickets are NOT_FOUND", async () => {
  const t = convexTest(schema, modules);
  const id = await t.mutation(api.tickets.create, { title: "gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("tickets", id);
  });
  expect(await errorData(t.mutation(api.tickets.assign, { ticketId: id, assignee: "x" }))).toEqual({ code: "NOT_FOUND" });
  expect(await errorData(t.mutation(api.tickets.move, { ticketId: id, to: "in_progress" }))).toEqual({ code: "NOT_FOUND" });
  expect(await errorData(t.mutation(api.tickets.reset, { ticketId: id, title: "x" }))).toEqual({ code: "NOT_FOUND" });
  expect(await t.query(api.tickets.get, { ticketId: id })).toBeNull();
});
