import { ConvexError, v } from "convex/values";
import { mutation, query } from "./_generated/server";
import type { QueryCtx } from "./_generated/server";

async function requireIdentity(ctx: QueryCtx) {
  const identity = await ctx.auth.getUserIdentity();
  if (identity === null) {
    throw new ConvexError({ code: "UNAUTHENTICATED", message: "You must be signed in" });
  }
  return identity;
}

export const create = mutation({
  args: { title: v.string() },
  returns: v.id("documents"),
  handler: async (ctx, args) => {
    const identity = await requireIdentity(ctx);
    return await ctx.db.insert("documents", {
      title: args.title,
      ownerTokenIdentifier: identity.tokenIdentifier,
      ownerName: identity.name ?? "anonymous",
    });
  },
});

export const listMine = query({
  args: {},
  returns: v.array(
    v.object({ _id: v.id("documents"), title: v.string(), ownerName: v.string() }),
  ),
  handler: async (ctx) => {
    const identity = await ctx.auth.getUserIdentity();
    if (identity === null) {
      return [];
    }
    const docs = await ctx.db
      .query("documents")
      .withIndex("by_owner", (q) => q.eq("ownerTokenIdentifier", identity.tokenIdentifier))
      .collect();
    return docs.map((d) => ({ _id: d._id, title: d.title, ownerName: d.ownerName }));
  },
});

export const rename = mutation({
  args: { id: v.id("documents"), title: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const identity = await requireIdentity(ctx);
    const doc = await ctx.db.get("documents", args.id);
    if (doc === null) {
      throw new ConvexError({ code: "NOT_FOUND", message: "Document not found" });
    }
    if (doc.ownerTokenIdentifier !== identity.tokenIdentifier) {
      throw new ConvexError({ code: "FORBIDDEN", message: "Not your document" });
    }
    await ctx.db.patch("documents", args.id, { title: args.title });
    return null;
  },
});
