import { convexTest } from "convex-test";
import workpoolTest from "@convex-dev/workpool/test";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const t = convexTest(schema, modules);
  workpoolTest.register(t, "emailWorkpool");
  return t;
}

test("queueEmail stores a queued email and the pool delivers it", async () => {
  const t = setup();
  const id = await t.mutation(api.emails.queueEmail, { to: "ada@example.com" });
  expect(await t.query(api.emails.getEmail, { emailId: id })).toEqual({ to: "ada@example.com", status: "queued" });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect(await t.query(api.emails.getEmail, { emailId: id })).toEqual({ to: "ada@example.com", status: "sent" });
});

test("a failing delivery ends as failed", async () => {
  const t = setup();
  const ok = await t.mutation(api.emails.queueEmail, { to: "bob@example.com" });
  const bad = await t.mutation(api.emails.queueEmail, { to: "nobody@invalid.test" });
  await t.finishAllScheduledFunctions(vi.runAllTimers);
  expect((await t.query(api.emails.getEmail, { emailId: ok })).status).toBe("sent");
  expect((await t.query(api.emails.getEmail, { emailId: bad })).status).toBe("failed");
});
