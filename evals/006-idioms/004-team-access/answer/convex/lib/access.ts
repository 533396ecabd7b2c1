import { ConvexError } from "convex/values";
import type { QueryCtx } from "../_generated/server";
import type { Doc, Id } from "../_generated/dataModel";

export async function requireIdentity(ctx: QueryCtx) {
  const identity = await ctx.auth.getUserIdentity();
  if (identity === null) {
    throw new ConvexError({ code: "UNAUTHENTICATED", message: "You must be signed in" });
  }
  return identity;
}

export async function requireMembership(ctx: QueryCtx, teamId: Id<"teams">): Promise<Doc<"memberships">> {
  const identity = await requireIdentity(ctx);
  const team = await ctx.db.get("teams", teamId);
  if (team === null) {
    throw new ConvexError({ code: "NOT_FOUND", message: "Team not found" });
  }
  const membership = await ctx.db
    .query("memberships")
    .withIndex("by_team_and_user", (q) => q.eq("teamId", teamId).eq("userToken", identity.tokenIdentifier))
    .unique();
  if (membership === null) {
    throw new ConvexError({ code: "FORBIDDEN", message: "You are not a member of this team" });
  }
  return membership;
}
