import { v } from "convex/values";
import { internalMutation, internalQuery } from "./_generated/server";

const archiveDoc = v.object({
  _id: v.id("archives"),
  _creationTime: v.number(),
  compressed: v.string(),
  originalLength: v.number(),
});

export const insert = internalMutation({
  args: { compressed: v.string(), originalLength: v.number() },
  returns: v.id("archives"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("archives", {
      compressed: args.compressed,
      originalLength: args.originalLength,
    });
  },
});

export const get = internalQuery({
  args: { id: v.id("archives") },
  returns: v.union(archiveDoc, v.null()),
  handler: async (ctx, args) => {
    return await ctx.db.get("archives", args.id);
  },
});
