import { action, internalMutation, internalQuery, query } from "./_generated/server";
import { internal } from "./_generated/api";
import { v } from "convex/values";
import type { Id } from "./_generated/dataModel";

export const findByTitle = internalQuery({
  args: {
    title: v.string(),
  },
  returns: v.union(v.id("documents"), v.null()),
  handler: async (ctx, args) => {
    const doc = await ctx.db
      .query("documents")
      .withIndex("by_title", (q) => q.eq("title", args.title))
      .unique();
    return doc === null ? null : doc._id;
  },
});

export const insertDocument = internalMutation({
  args: {
    title: v.string(),
    body: v.string(),
    wordCount: v.number(),
  },
  returns: v.id("documents"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("documents", {
      title: args.title,
      body: args.body,
      wordCount: args.wordCount,
    });
  },
});

export const importDocument = action({
  args: {
    title: v.string(),
    body: v.string(),
  },
  returns: v.object({
    documentId: v.id("documents"),
    created: v.boolean(),
  }),
  handler: async (ctx, args): Promise<{ documentId: Id<"documents">; created: boolean }> => {
    const existing = await ctx.runQuery(internal.documents.findByTitle, { title: args.title });
    if (existing !== null) {
      return { documentId: existing, created: false };
    }
    const wordCount = args.body.split(/\s+/).filter((word) => word.length > 0).length;
    const documentId = await ctx.runMutation(internal.documents.insertDocument, {
      title: args.title,
      body: args.body,
      wordCount,
    });
    return { documentId, created: true };
  },
});

export const get = query({
  args: {
    documentId: v.id("documents"),
  },
  returns: v.union(
    v.object({
      title: v.string(),
      wordCount: v.number(),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    const doc = await ctx.db.get("documents", args.documentId);
    if (doc === null) {
      return null;
    }
    return { title: doc.title, wordCount: doc.wordCount };
  },
});
