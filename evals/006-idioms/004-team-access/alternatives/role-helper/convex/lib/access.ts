import { ConvexError } from "convex/values";
import type { MutationCtx, QueryCtx } from "../_generated/server";
import type { Doc, Id } from "../_generated/dataModel";

type Code = "UNAUTHENTICATED" | "NOT_FOUND" | "FORBIDDEN";

function fail(code: Code, message: string): never {
  throw new ConvexError({ code, message });
}

export async function requireIdentity(ctx: QueryCtx | MutationCtx) {
  return (await ctx.auth.getUserIdentity()) ?? fail("UNAUTHENTICATED", "Sign in first");
}

export async function requireMembership(
  ctx: QueryCtx | MutationCtx,
  teamId: Id<"teams">,
): Promise<Doc<"memberships">> {
  const { tokenIdentifier } = await requireIdentity(ctx);
  if ((await ctx.db.get("teams", teamId)) === null) {
    fail("NOT_FOUND", `No team ${teamId}`);
  }
  const membership = await ctx.db
    .query("memberships")
    .withIndex("by_team_and_user", (q) => q.eq("teamId", teamId).eq("userToken", tokenIdentifier))
    .first();
  return membership ?? fail("FORBIDDEN", "Members only");
}

export async function requireOwner(ctx: MutationCtx, teamId: Id<"teams">) {
  const membership = await requireMembership(ctx, teamId);
  if (membership.role !== "owner") {
    fail("FORBIDDEN", "Owners only");
  }
  return membership;
}
