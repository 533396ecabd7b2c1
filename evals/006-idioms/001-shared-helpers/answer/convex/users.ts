import { v } from "convex/values";
import { mutation } from "./_generated/server";
import { getUserByEmail } from "./model/users";

export const register = mutation({
  args: { name: v.string(), email: v.string() },
  returns: v.id("users"),
  handler: async (ctx, args) => {
    if ((await getUserByEmail(ctx, args.email)) !== null) {
      throw new Error(`Email ${args.email} is already registered`);
    }
    return await ctx.db.insert("users", { name: args.name, email: args.email });
  },
});
