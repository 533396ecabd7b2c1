import { mutation, query } from "./_generated/server";
import { paginationOptsValidator, paginationResultValidator } from "convex/server";
import { v } from "convex/values";

export const create = mutation({
  args: {
    authorId: v.id("users"),
    text: v.string(),
  },
  returns: v.id("posts"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("posts", { authorId: args.authorId, text: args.text });
  },
});

export const list = query({
  args: {
    paginationOpts: paginationOptsValidator,
  },
  returns: paginationResultValidator(
    v.object({
      _id: v.id("posts"),
      _creationTime: v.number(),
      authorId: v.id("users"),
      text: v.string(),
    }),
  ),
  handler: async (ctx, args) => {
    return await ctx.db.query("posts").order("desc").paginate(args.paginationOpts);
  },
});
