import { customCtx, customMutation, customQuery } from "convex-helpers/server/customFunctions";
import { ConvexError } from "convex/values";
import { mutation, query, type QueryCtx } from "./_generated/server";

async function currentUser(ctx: QueryCtx) {
  const identity = await ctx.auth.getUserIdentity();
  if (identity === null) {
    throw new ConvexError("Not signed in");
  }
  const user = await ctx.db
    .query("users")
    .withIndex("by_token", (q) => q.eq("tokenIdentifier", identity.tokenIdentifier))
    .unique();
  if (user === null) {
    throw new ConvexError("Unknown user");
  }
  return user;
}

export const userQuery = customQuery(
  query,
  customCtx(async (ctx) => ({ user: await currentUser(ctx) })),
);

export const userMutation = customMutation(
  mutation,
  customCtx(async (ctx) => ({ user: await currentUser(ctx) })),
);
