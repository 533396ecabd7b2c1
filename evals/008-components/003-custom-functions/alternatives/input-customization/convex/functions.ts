import { customMutation, customQuery } from "convex-helpers/server/customFunctions";
import type { Doc } from "./_generated/dataModel";
import { mutation, query, type QueryCtx } from "./_generated/server";

async function requireUser(ctx: QueryCtx): Promise<Doc<"users">> {
  const identity = await ctx.auth.getUserIdentity();
  if (!identity) throw new Error("Unauthenticated");
  const user = await ctx.db
    .query("users")
    .withIndex("by_token", (q) => q.eq("tokenIdentifier", identity.tokenIdentifier))
    .first();
  if (!user) throw new Error("User not stored yet: call users.store first");
  return user;
}

export const userQuery = customQuery(query, {
  args: {},
  input: async (ctx) => ({ ctx: { user: await requireUser(ctx) }, args: {} }),
});

export const userMutation = customMutation(mutation, {
  args: {},
  input: async (ctx) => ({ ctx: { user: await requireUser(ctx) }, args: {} }),
});
