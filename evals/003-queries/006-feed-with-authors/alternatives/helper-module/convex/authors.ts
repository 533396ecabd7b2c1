import { mutation } from "./_generated/server";
import { v } from "convex/values";

export const create = mutation({
  args: {
    name: v.string(),
  },
  returns: v.id("authors"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("authors", { name: args.name });
  },
});
