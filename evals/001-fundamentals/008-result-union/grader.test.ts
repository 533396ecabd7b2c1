import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

test("redeem decrements and returns the ok shape", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.coupons.create, { code: "SAVE10", percentOff: 10, remaining: 2 });
  expect(await t.mutation(api.coupons.redeem, { code: "SAVE10" })).toEqual({
    ok: true,
    percentOff: 10,
    remaining: 1,
  });
  expect(await t.query(api.coupons.peek, { code: "SAVE10" })).toEqual({
    percentOff: 10,
    remaining: 1,
  });
});

test("an unknown code returns reason unknown", async () => {
  const t = convexTest(schema, modules);
  expect(await t.mutation(api.coupons.redeem, { code: "NOPE" })).toEqual({
    ok: false,
    reason: "unknown",
  });
  expect(await t.query(api.coupons.peek, { code: "NOPE" })).toBeNull();
});

test("an exhausted coupon returns reason exhausted and is not changed", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.coupons.create, { code: "ONCE", percentOff: 50, remaining: 1 });
  expect(await t.mutation(api.coupons.redeem, { code: "ONCE" })).toEqual({
    ok: true,
    percentOff: 50,
    remaining: 0,
  });
  expect(await t.mutation(api.coupons.redeem, { code: "ONCE" })).toEqual({
    ok: false,
    reason: "exhausted",
  });
  expect(await t.query(api.coupons.peek, { code: "ONCE" })).toEqual({
    percentOff: 50,
    remaining: 0,
  });
});

test("the result type narrows on ok", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.coupons.create, { code: "T", percentOff: 5, remaining: 3 });
  const result = await t.mutation(api.coupons.redeem, { code: "T" });
  if (result.ok) {
    const percent: number = result.percentOff;
    expect(percent).toBe(5);
  } else {
    const reason: "unknown" | "exhausted" = result.reason;
    expect(reason).toBe("never");
  }
});
