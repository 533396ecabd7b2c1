import { v } from "convex/values";
import { internalMutation } from "./_generated/server";

export const logRequest = internalMutation({
  args: { apiKey: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    await ctx.db.insert("requests", { apiKey: args.apiKey });
    return null;
  },
});
