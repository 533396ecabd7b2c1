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

async function reservationCount(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => (await ctx.db.query("reservations").collect()).length);
}

test("reserve until sold out", async () => {
  const t = convexTest(schema, modules);
  const e = await t.mutation(api.reservations.createEvent, { name: "gig", capacity: 2 });
  expect(await t.query(api.reservations.seatsLeft, { eventId: e })).toBe(2);
  await t.mutation(api.reservations.reserve, { eventId: e, userId: "ann" });
  await t.mutation(api.reservations.reserve, { eventId: e, userId: "bob" });
  expect(await t.query(api.reservations.seatsLeft, { eventId: e })).toBe(0);
  expect(await errorData(t.mutation(api.reservations.reserve, { eventId: e, userId: "cy" }))).toEqual({
    code: "SOLD_OUT",
    capacity: 2,
  });
  expect(await reservationCount(t)).toBe(2);
  const linked = await t.run(async (ctx) => {
    const reservation = await ctx.db.query("reservations").first();
    return reservation === null ? null : await ctx.db.get("events", reservation.eventId);
  });
  expect(linked?.name).toBe("gig");
});

test("a second reservation by the same user names the first one", async () => {
  const t = convexTest(schema, modules);
  const e = await t.mutation(api.reservations.createEvent, { name: "gig", capacity: 5 });
  const other = await t.mutation(api.reservations.createEvent, { name: "other", capacity: 5 });
  const first = await t.mutation(api.reservations.reserve, { eventId: e, userId: "ann" });
  expect(await errorData(t.mutation(api.reservations.reserve, { eventId: e, userId: "ann" }))).toEqual({
    code: "ALREADY_RESERVED",
    reservationId: first,
  });
  expect(await reservationCount(t)).toBe(1);
  await t.mutation(api.reservations.reserve, { eventId: other, userId: "ann" });
  expect(await t.query(api.reservations.seatsLeft, { eventId: e })).toBe(4);
  expect(await t.query(api.reservations.seatsLeft, { eventId: other })).toBe(4);
});

test("cancel frees a seat; cancelling nothing is NO_RESERVATION", async () => {
  const t = convexTest(schema, modules);
  const e = await t.mutation(api.reservations.createEvent, { name: "gig", capacity: 1 });
  await t.mutation(api.reservations.reserve, { eventId: e, userId: "ann" });
  expect(await t.mutation(api.reservations.cancel, { eventId: e, userId: "ann" })).toBeNull();
  expect(await t.query(api.reservations.seatsLeft, { eventId: e })).toBe(1);
  expect(await errorData(t.mutation(api.reservations.cancel, { eventId: e, userId: "ann" }))).toEqual({
    code: "NO_RESERVATION",
  });
  await t.mutation(api.reservations.reserve, { eventId: e, userId: "bob" });
  expect(await t.query(api.reservations.seatsLeft, { eventId: e })).toBe(0);
});

test("invalid capacity and missing events", async () => {
  const t = convexTest(schema, modules);
  expect(await errorData(t.mutation(api.reservations.createEvent, { name: "x", capacity: 0 }))).toEqual({
    code: "INVALID_CAPACITY",
    capacity: 0,
  });
  expect(await errorData(t.mutation(api.reservations.createEvent, { name: "x", capacity: 1.5 }))).toEqual({
    code: "INVALID_CAPACITY",
    capacity: 1.5,
  });
  const e = await t.mutation(api.reservations.createEvent, { name: "gone", capacity: 3 });
  await t.run(async (ctx) => {
    await ctx.db.delete("events", e);
  });
  expect(await errorData(t.mutation(api.reservations.reserve, { eventId: e, userId: "ann" }))).toEqual({
    code: "EVENT_NOT_FOUND",
  });
  expect(await t.query(api.reservations.seatsLeft, { eventId: e })).toBeNull();
  const events = await t.run(async (ctx) => await ctx.db.query("events").collect());
  expect(events).toHaveLength(0);
  expect(await reservationCount(t)).toBe(0);
});
