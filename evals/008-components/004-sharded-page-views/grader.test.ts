import { convexTest } from "convex-test";
import shardedCounterTest from "@convex-dev/sharded-counter/test";
import { ShardedCounter } from "@convex-dev/sharded-counter";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api, components } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

function setup() {
  const t = convexTest(schema, modules);
  shardedCounterTest.register(t, "shardedCounter");
  return t;
}

test("views are counted per page and in total", async () => {
  const t = setup();
  const home = await t.mutation(api.views.createPage, { slug: "home" });
  const about = await t.mutation(api.views.createPage, { slug: "about" });
  expect(await t.query(api.views.viewCount, { pageId: home })).toBe(0);
  for (let i = 0; i < 5; i++) {
    expect(await t.mutation(api.views.recordView, { pageId: home })).toBeNull();
  }
  await t.mutation(api.views.recordView, { pageId: about });
  await t.mutation(api.views.recordView, { pageId: about });
  expect(await t.query(api.views.viewCount, { pageId: home })).toBe(5);
  expect(await t.query(api.views.viewCount, { pageId: about })).toBe(2);
  expect(await t.query(api.views.totalViews, {})).toBe(7);
});

test("the counts live in the sharded counter under the stated keys", async () => {
  const t = setup();
  const home = await t.mutation(api.views.createPage, { slug: "home" });
  await t.mutation(api.views.recordView, { pageId: home });
  await t.mutation(api.views.recordView, { pageId: home });
  const counter = new ShardedCounter(components.shardedCounter);
  const [page, total] = await t.run(async (ctx) => [
    await counter.count(ctx, home),
    await counter.count(ctx, "total"),
  ]);
  expect(page).toBe(2);
  expect(total).toBe(2);
});

test("recordView throws for a missing page and counts nothing", async () => {
  const t = setup();
  const gone = await t.mutation(api.views.createPage, { slug: "gone" });
  await t.run(async (ctx) => {
    await ctx.db.delete("pages", gone);
  });
  await expect(t.mutation(api.views.recordView, { pageId: gone })).rejects.toThrow();
  expect(await t.query(api.views.totalViews, {})).toBe(0);
});

test("resetPage zeroes one page and takes its views out of the total", async () => {
  const t = setup();
  const home = await t.mutation(api.views.createPage, { slug: "home" });
  const about = await t.mutation(api.views.createPage, { slug: "about" });
  for (let i = 0; i < 3; i++) await t.mutation(api.views.recordView, { pageId: home });
  await t.mutation(api.views.recordView, { pageId: about });
  expect(await t.mutation(api.views.resetPage, { pageId: home })).toBeNull();
  expect(await t.query(api.views.viewCount, { pageId: home })).toBe(0);
  expect(await t.query(api.views.viewCount, { pageId: about })).toBe(1);
  expect(await t.query(api.views.totalViews, {})).toBe(1);
  await t.mutation(api.views.recordView, { pageId: home });
  expect(await t.query(api.views.viewCount, { pageId: home })).toBe(1);
  expect(await t.query(api.views.totalViews, {})).toBe(2);
});
