import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const createAuthor = mutation({
  args: {
    name: v.string(),
  },
  returns: v.id("authors"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("authors", { name: args.name });
  },
});

export const createBook = mutation({
  args: {
    title: v.string(),
    authorId: v.id("authors"),
  },
  returns: v.id("books"),
  handler: async (ctx, args) => {
    const author = await ctx.db.get("authors", args.authorId);
    if (author === null) {
      throw new ConvexError("Author not found");
    }
    return await ctx.db.insert("books", {
      title: args.title,
      authorId: args.authorId,
    });
  },
});

export const getBookWithAuthor = query({
  args: {
    bookId: v.id("books"),
  },
  returns: v.union(
    v.object({
      title: v.string(),
      authorName: v.string(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const book = await ctx.db.get("books", args.bookId);
    if (book === null) {
      return null;
    }
    const author = await ctx.db.get("authors", book.authorId);
    if (author === null) {
      return null;
    }
    return { title: book.title, authorName: author.name };
  },
});

export const listBooksByAuthor = query({
  args: {
    authorId: v.id("authors"),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const books = await ctx.db
      .query("books")
      .withIndex("by_author", (q) => q.eq("authorId", args.authorId))
      .collect();
    return books.map((book) => book.title);
  },
});
