import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const create = mutation({
  args: {
    authorId: v.id("authors"),
    title: v.string(),
  },
  returns: v.id("posts"),
  handler: async (ctx, args) => {
    const author = await ctx.db.get("authors", args.authorId);
    if (author === null) {
      throw new ConvexError("Author not found");
    }
    return await ctx.db.insert("posts", { authorId: args.authorId, title: args.title });
  },
});

export const feed = query({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("posts"),
      title: v.string(),
      authorName: v.string(),
    }),
  ),
  handler: async (ctx) => {
    const posts = await ctx.db.query("posts").order("desc").take(5);
    return await Promise.all(
      posts.map(async (post) => {
        const author = await ctx.db.get("authors", post.authorId);
        return {
          _id: post._id,
          title: post.title,
          authorName: author === null ? "[deleted]" : author.name,
        };
      }),
    );
  },
});

export const byAuthor = query({
  args: {
    authorId: v.id("authors"),
  },
  returns: v.union(
    v.object({
      author: v.object({
        _id: v.id("authors"),
        _creationTime: v.number(),
        name: v.string(),
      }),
      posts: v.array(
        v.object({
          _id: v.id("posts"),
          _creationTime: v.number(),
          authorId: v.id("authors"),
          title: v.string(),
        }),
      ),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const author = await ctx.db.get("authors", args.authorId);
    if (author === null) {
      return null;
    }
    const posts = await ctx.db
      .query("posts")
      .withIndex("by_author", (q) => q.eq("authorId", args.authorId))
      .collect();
    return { author, posts };
  },
});
