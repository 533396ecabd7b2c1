import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

export const create = mutation({
  args: {
    name: v.string(),
    bio: v.string(),
    age: v.number(),
    website: v.optional(v.string()),
  },
  returns: v.id("profiles"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("profiles", {
      name: args.name,
      bio: args.bio,
      age: args.age,
      website: args.website,
    });
  },
});

export const updateBio = mutation({
  args: {
    profileId: v.id("profiles"),
    bio: v.string(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const profile = await ctx.db.get("profiles", args.profileId);
    if (profile === null) {
      throw new ConvexError("Profile not found");
    }
    await ctx.db.patch("profiles", args.profileId, { bio: args.bio });
    return null;
  },
});

export const replaceProfile = mutation({
  args: {
    profileId: v.id("profiles"),
    name: v.string(),
    bio: v.string(),
    age: v.number(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const profile = await ctx.db.get("profiles", args.profileId);
    if (profile === null) {
      throw new ConvexError("Profile not found");
    }
    await ctx.db.replace("profiles", args.profileId, {
      name: args.name,
      bio: args.bio,
      age: args.age,
    });
    return null;
  },
});

export const get = query({
  args: {
    profileId: v.id("profiles"),
  },
  returns: v.union(
    v.object({
      _id: v.id("profiles"),
      _creationTime: v.number(),
      name: v.string(),
      bio: v.string(),
      age: v.number(),
      website: v.optional(v.string()),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db.get("profiles", args.profileId);
  },
});
