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

export const addBook = mutation({
  args: {
    authorId: v.id("authors"),
    title: v.string(),
  },
  returns: v.id("books"),
  handler: async (ctx, args) => {
    const author = await ctx.db.get("authors", args.authorId);
    if (author === null) {
      throw new ConvexError({ code: "NOT_FOUND" });
    }
    return await ctx.db.insert("books", { authorId: args.authorId, title: args.title });
  },
});

export const addReview = mutation({
  args: {
    bookId: v.id("books"),
    stars: v.number(),
  },
  returns: v.id("reviews"),
  handler: async (ctx, args) => {
    if (!Number.isInteger(args.stars) || args.stars < 1 || args.stars > 5) {
      throw new ConvexError({ code: "INVALID_STARS" });
    }
    const book = await ctx.db.get("books", args.bookId);
    if (book === null) {
      throw new ConvexError({ code: "NOT_FOUND" });
    }
    return await ctx.db.insert("reviews", { bookId: args.bookId, stars: args.stars });
  },
});

export const booksOf = query({
  args: {
    authorId: v.id("authors"),
  },
  returns: v.array(
    v.object({
      _id: v.id("books"),
      _creationTime: v.number(),
      authorId: v.id("authors"),
      title: v.string(),
    }),
  ),
  handler: async (ctx, args) => {
    return await ctx.db
      .query("books")
      .withIndex("by_author", (q) => q.eq("authorId", args.authorId))
      .collect();
  },
});

export const deleteAuthor = mutation({
  args: {
    authorId: v.id("authors"),
  },
  returns: v.object({
    books: v.number(),
    reviews: v.number(),
  }),
  handler: async (ctx, args) => {
    const author = await ctx.db.get("authors", args.authorId);
    if (author === null) {
      throw new ConvexError({ code: "NOT_FOUND" });
    }
    const books = await ctx.db
      .query("books")
      .withIndex("by_author", (q) => q.eq("authorId", args.authorId))
      .collect();
    let reviews = 0;
    for (const book of books) {
      const bookReviews = await ctx.db
        .query("reviews")
        .withIndex("by_book", (q) => q.eq("bookId", book._id))
        .collect();
      for (const review of bookReviews) {
        await ctx.db.delete("reviews", review._id);
      }
      reviews += bookReviews.length;
      await ctx.db.delete("books", book._id);
    }
    await ctx.db.delete("authors", args.authorId);
    return { books: books.length, reviews };
  },
});
