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

async function seed(t: ReturnType<typeof convexTest>) {
  const ann = await t.mutation(api.library.createAuthor, { name: "Ann" });
  const bob = await t.mutation(api.library.createAuthor, { name: "Bob" });
  const a1 = await t.mutation(api.library.addBook, { authorId: ann, title: "a1" });
  const b1 = await t.mutation(api.library.addBook, { authorId: bob, title: "b1" });
  const a2 = await t.mutation(api.library.addBook, { authorId: ann, title: "a2" });
  await t.mutation(api.library.addBook, { authorId: ann, title: "a3" });
  await t.mutation(api.library.addReview, { bookId: a1, stars: 5 });
  await t.mutation(api.library.addReview, { bookId: a1, stars: 3 });
  await t.mutation(api.library.addReview, { bookId: b1, stars: 4 });
  await t.mutation(api.library.addReview, { bookId: a2, stars: 1 });
  return { ann, bob, b1 };
}

async function counts(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => ({
    authors: (await ctx.db.query("authors").collect()).length,
    books: (await ctx.db.query("books").collect()).length,
    reviews: (await ctx.db.query("reviews").collect()).length,
  }));
}

test("booksOf lists an author's books oldest first", async () => {
  const t = convexTest(schema, modules);
  const { ann, bob } = await seed(t);
  const books = await t.query(api.library.booksOf, { authorId: ann });
  expect(books.map((b) => b.title)).toEqual(["a1", "a2", "a3"]);
  expect(books[0]).toMatchObject({ authorId: ann, title: "a1" });
  expect(typeof books[0]._creationTime).toBe("number");
  expect((await t.query(api.library.booksOf, { authorId: bob })).map((b) => b.title)).toEqual(["b1"]);
});

test("deleteAuthor removes the author, their books and those books' reviews at once", async () => {
  const t = convexTest(schema, modules);
  const { ann, bob, b1 } = await seed(t);
  expect(await t.mutation(api.library.deleteAuthor, { authorId: ann })).toEqual({ books: 3, reviews: 3 });
  expect(await counts(t)).toEqual({ authors: 1, books: 1, reviews: 1 });
  const left = await t.run(async (ctx) => ({
    bob: await ctx.db.get("authors", bob),
    reviews: await ctx.db.query("reviews").collect(),
  }));
  expect(left.bob?.name).toBe("Bob");
  expect(left.reviews[0].bookId).toBe(b1);
  expect(await t.query(api.library.booksOf, { authorId: ann })).toEqual([]);
});

test("deleteAuthor of a missing author throws NOT_FOUND and deletes nothing", async () => {
  const t = convexTest(schema, modules);
  const { ann } = await seed(t);
  await t.mutation(api.library.deleteAuthor, { authorId: ann });
  const before = await counts(t);
  expect(await errorData(t.mutation(api.library.deleteAuthor, { authorId: ann }))).toEqual({ code: "NOT_FOUND" });
  expect(await counts(t)).toEqual(before);
  await expect(t.mutation(api.library.addBook, { authorId: ann, title: "late" })).rejects.toThrow();
});

test("addReview validates stars and the book", async () => {
  const t = convexTest(schema, modules);
  const { b1 } = await seed(t);
  const before = await counts(t);
  expect(await errorData(t.mutation(api.library.addReview, { bookId: b1, stars: 0 }))).toEqual({ code: "INVALID_STARS" });
  expect(await errorData(t.mutation(api.library.addReview, { bookId: b1, stars: 6 }))).toEqual({ code: "INVALID_STARS" });
  expect(await errorData(t.mutation(api.library.addReview, { bookId: b1, stars: 2.5 }))).toEqual({ code: "INVALID_STARS" });
  expect(await counts(t)).toEqual(before);
  await t.run(async (ctx) => {
    await ctx.db.delete("books", b1);
  });
  await expect(t.mutation(api.library.addReview, { bookId: b1, stars: 3 })).rejects.toThrow();
});
