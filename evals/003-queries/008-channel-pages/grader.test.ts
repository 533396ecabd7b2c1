import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import type { FunctionReturnType } from "convex/server";

const modules = import.meta.glob("./convex/**/*.*s");

type Page = FunctionReturnType<typeof api.messages.history>;

test("history pages through one channel newest first", async () => {
  const t = convexTest(schema, modules);
  for (let i = 1; i <= 7; i++) {
    await t.mutation(api.messages.send, { channelId: "c1", author: "ann", body: `m${i}` });
    if (i % 3 === 0) {
      await t.mutation(api.messages.send, { channelId: "c2", author: "bob", body: `other${i}` });
    }
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  for (;;) {
    const result: Page = await t.query(api.messages.history, { channelId: "c1", paginationOpts: { numItems: 3, cursor } });
    expect(result.page.length).toBeLessThanOrEqual(3);
    seen.push(...result.page.map((m) => m.body));
    pages++;
    if (result.isDone) break;
    cursor = result.continueCursor;
    expect(pages).toBeLessThan(10);
  }
  expect(seen).toEqual(["m7", "m6", "m5", "m4", "m3", "m2", "m1"]);
});

test("history's first page holds full documents and reports more to come", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.messages.send, { channelId: "c1", author: "ann", body: "old" });
  await t.mutation(api.messages.send, { channelId: "c1", author: "bob", body: "new" });
  await t.mutation(api.messages.send, { channelId: "c1", author: "cy", body: "newest" });
  const first: Page = await t.query(api.messages.history, { channelId: "c1", paginationOpts: { numItems: 2, cursor: null } });
  expect(first.page).toHaveLength(2);
  expect(first.page[0]).toMatchObject({ channelId: "c1", author: "cy", body: "newest" });
  expect(typeof first.page[0]._id).toBe("string");
  expect(typeof first.page[0]._creationTime).toBe("number");
  expect(first.isDone).toBe(false);
  expect(typeof first.continueCursor).toBe("string");
  const empty: Page = await t.query(api.messages.history, { channelId: "none", paginationOpts: { numItems: 2, cursor: null } });
  expect(empty.page).toEqual([]);
  expect(empty.isDone).toBe(true);
});

test("countByAuthor counts one author's messages in one channel", async () => {
  const t = convexTest(schema, modules);
  await t.mutation(api.messages.send, { channelId: "c1", author: "ann", body: "1" });
  await t.mutation(api.messages.send, { channelId: "c1", author: "bob", body: "2" });
  await t.mutation(api.messages.send, { channelId: "c2", author: "ann", body: "3" });
  await t.mutation(api.messages.send, { channelId: "c1", author: "ann", body: "4" });
  expect(await t.query(api.messages.countByAuthor, { channelId: "c1", author: "ann" })).toBe(2);
  expect(await t.query(api.messages.countByAuthor, { channelId: "c2", author: "ann" })).toBe(1);
  expect(await t.query(api.messages.countByAuthor, { channelId: "c1", author: "zed" })).toBe(0);
});
