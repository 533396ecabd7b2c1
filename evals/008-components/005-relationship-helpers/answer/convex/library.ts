import { getAll, getManyFrom, getManyVia } from "convex-helpers/server/relationships";
import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const createAuthor = mutation({
  args: { name: v.string() },
  returns: v.id("authors"),
  handler: async (ctx, args) => await ctx.db.insert("authors", { name: args.name }),
});

export const createBook = mutation({
  args: { title: v.string(), authorId: v.id("authors") },
  returns: v.id("books"),
  handler: async (ctx, args) => await ctx.db.insert("books", { title: args.title, authorId: args.authorId }),
});

export const createTag = mutation({
  args: { name: v.string() },
  returns: v.id("tags"),
  handler: async (ctx, args) => await ctx.db.insert("tags", { name: args.name }),
});

export const tagBook = mutation({
  args: { bookId: v.id("books"), tagId: v.id("tags") },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.insert("bookTags", { bookId: args.bookId, tagId: args.tagId });
    return null;
  },
});

export const authorWithBooks = query({
  args: { authorId: v.id("authors") },
  returns: v.union(v.null(), v.object({ name: v.string(), titles: v.array(v.string()) })),
  handler: async (ctx, args) => {
    const author = await ctx.db.get("authors", args.authorId);
    if (author === null) {
      return null;
    }
    const books = await getManyFrom(ctx.db, "books", "by_authorId", args.authorId);
    return { name: author.name, titles: books.map((book) => book.title) };
  },
});

export const titlesByIds = query({
  args: { bookIds: v.array(v.id("books")) },
  returns: v.array(v.union(v.string(), v.null())),
  handler: async (ctx, args) => {
    const books = await getAll(ctx.db, "books", args.bookIds);
    return books.map((book) => book?.title ?? null);
  },
});

export const tagNames = query({
  args: { bookId: v.id("books") },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const tags = await getManyVia(ctx.db, "bookTags", "tagId", "by_bookId", args.bookId);
    return tags.flatMap((tag) => (tag === null ? [] : [tag.name]));
  },
});
