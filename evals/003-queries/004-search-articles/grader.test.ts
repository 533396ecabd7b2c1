import { convexTest } from "convex-test";
import { expect, test } from "vitest";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";

const modules = import.meta.glob("./convex/**/*.*s");

async function seed(t: ReturnType<typeof convexTest>) {
  await t.mutation(api.articles.create, { title: "Reset", body: "how to reset your password", category: "account", published: true });
  await t.mutation(api.articles.create, { title: "Invoice", body: "download an invoice as pdf", category: "billing", published: true });
  await t.mutation(api.articles.create, { title: "Draft", body: "password rules draft", category: "account", published: false });
  await t.mutation(api.articles.create, { title: "Card", body: "change the card used for billing password", category: "billing", published: true });
}

test("search finds published articles whose body matches", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const found = await t.query(api.articles.search, { query: "password" });
  expect(found.map((a) => a.title).sort()).toEqual(["Card", "Reset"]);
  const reset = found.find((a) => a.title === "Reset");
  expect(reset).toMatchObject({ body: "how to reset your password", category: "account", published: true });
  expect(typeof reset?._id).toBe("string");
  expect(typeof reset?._creationTime).toBe("number");
  expect(await t.query(api.articles.search, { query: "kangaroo" })).toEqual([]);
});

test("search restricts to a category when one is given", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const billing = await t.query(api.articles.search, { query: "password", category: "billing" });
  expect(billing.map((a) => a.title)).toEqual(["Card"]);
  const account = await t.query(api.articles.search, { query: "password", category: "account" });
  expect(account.map((a) => a.title)).toEqual(["Reset"]);
  expect(await t.query(api.articles.search, { query: "password", category: "none" })).toEqual([]);
});

test("search never returns unpublished articles", async () => {
  const t = convexTest(schema, modules);
  await seed(t);
  const found = await t.query(api.articles.search, { query: "draft" });
  expect(found).toEqual([]);
});

test("search returns at most 10 articles", async () => {
  const t = convexTest(schema, modules);
  for (let i = 0; i < 13; i++) {
    await t.mutation(api.articles.create, { title: `T${i}`, body: `shipping note ${i}`, category: "orders", published: true });
  }
  await t.mutation(api.articles.create, { title: "hidden", body: "shipping secret", category: "orders", published: false });
  const found = await t.query(api.articles.search, { query: "shipping" });
  expect(found).toHaveLength(10);
  expect(found.every((a) => a.published && a.title !== "hidden")).toBe(true);
});
