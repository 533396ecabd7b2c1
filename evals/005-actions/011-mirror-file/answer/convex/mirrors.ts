import { v } from "convex/values";
import { internalMutation, query } from "./_generated/server";

export const record = internalMutation({
  args: {
    sourceUrl: v.string(),
    storageId: v.id("_storage"),
    sha256: v.string(),
    size: v.number(),
  },
  returns: v.id("mirrors"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("mirrors", {
      sourceUrl: args.sourceUrl,
      storageId: args.storageId,
      sha256: args.sha256,
      size: args.size,
    });
  },
});

export const findBySha256 = query({
  args: { sha256: v.string() },
  returns: v.union(
    v.object({
      sourceUrl: v.string(),
      size: v.number(),
      storageId: v.id("_storage"),
      url: v.union(v.string(), v.null()),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const mirror = await ctx.db
      .query("mirrors")
      .withIndex("by_sha256", (q) => q.eq("sha256", args.sha256))
      .first();
    if (mirror === null) {
      return null;
    }
    return {
      sourceUrl: mirror.sourceUrl,
      size: mirror.size,
      storageId: mirror.storageId,
      url: await ctx.storage.getUrl(mirror.storageId),
    };
  },
});
