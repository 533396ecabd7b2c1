import type { QueryCtx } from "../_generated/server";
import type { Doc } from "../_generated/dataModel";

export async function getUserByEmail(ctx: QueryCtx, email: string): Promise<Doc<"users"> | null> {
  return await ctx.db
    .query("users")
    .withIndex("by_email", (q) => q.eq("email", email))
    .unique();
}

export async function requireUserByEmail(ctx: QueryCtx, email: string): Promise<Doc<"users">> {
  const user = await getUserByEmail(ctx, email);
  if (user === null) {
    throw new Error(`No user with email ${email}`);
  }
  return user;
}
