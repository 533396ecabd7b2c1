import { ConvexError, v } from "convex/values";
import { mutation, query } from "./_generated/server";
import { getCurrentUser, requireCurrentUser } from "./model/currentUser";

export const ensureProfile = mutation({
  args: {},
  returns: v.id("users"),
  handler: async (ctx) => {
    const identity = await ctx.auth.getUserIdentity();
    if (identity === null) {
      throw new ConvexError({ code: "UNAUTHENTICATED", message: "You must be signed in" });
    }
    const existing = await getCurrentUser(ctx);
    if (existing !== null) {
      return existing._id;
    }
    return await ctx.db.insert("users", {
      tokenIdentifier: identity.tokenIdentifier,
      name: identity.name ?? "anonymous",
      bio: "",
    });
  },
});

export const me = query({
  args: {},
  returns: v.union(v.object({ name: v.string(), bio: v.string() }), v.null()),
  handler: async (ctx) => {
    const user = await getCurrentUser(ctx);
    return user === null ? null : { name: user.name, bio: user.bio };
  },
});

export const updateBio = mutation({
  args: { bio: v.string() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const user = await requireCurrentUser(ctx);
    if (args.bio.length > 160) {
      throw new ConvexError({ code: "INVALID_ARGUMENT", message: "bio is limited to 160 characters" });
    }
    await ctx.db.patch("users", user._id, { bio: args.bio });
    return null;
  },
});

export const profileCard = query({
  args: { userId: v.id("users") },
  returns: v.union(v.object({ name: v.string(), bio: v.string(), isMe: v.boolean() }), v.null()),
  handler: async (ctx, args) => {
    const user = await ctx.db.get("users", args.userId);
    if (user === null) {
      return null;
    }
    const me = await getCurrentUser(ctx);
    return { name: user.name, bio: user.bio, isMe: me !== null && me._id === user._id };
  },
});
