import { mutation, query } from "./_generated/server";
import { ConvexError, v } from "convex/values";

const parentArg = v.union(v.id("folders"), v.null());

export const create = mutation({
  args: {
    name: v.string(),
    parentId: parentArg,
  },
  returns: v.id("folders"),
  handler: async (ctx, args) => {
    if (args.parentId !== null && (await ctx.db.get("folders", args.parentId)) === null) {
      throw new ConvexError("Parent folder not found");
    }
    return await ctx.db.insert("folders", { name: args.name, parentId: args.parentId });
  },
});

export const children = query({
  args: {
    parentId: parentArg,
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const rows = await ctx.db
      .query("folders")
      .withIndex("by_parent", (q) => q.eq("parentId", args.parentId))
      .collect();
    return rows.map((row) => row.name);
  },
});

export const path = query({
  args: {
    folderId: v.id("folders"),
  },
  returns: v.array(v.string()),
  handler: async (ctx, args) => {
    const names: string[] = [];
    let current = await ctx.db.get("folders", args.folderId);
    while (current !== null) {
      names.unshift(current.name);
      current = current.parentId === null ? null : await ctx.db.get("folders", current.parentId);
    }
    return names;
  },
});

export const move = mutation({
  args: {
    folderId: v.id("folders"),
    parentId: parentArg,
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const folder = await ctx.db.get("folders", args.folderId);
    if (folder === null) {
      throw new ConvexError("Folder not found");
    }
    let ancestorId = args.parentId;
    while (ancestorId !== null) {
      if (ancestorId === args.folderId) {
        throw new ConvexError("A folder cannot move into itself or its descendants");
      }
      const ancestor = await ctx.db.get("folders", ancestorId);
      if (ancestor === null) {
        throw new ConvexError("Parent folder not found");
      }
      ancestorId = ancestor.parentId;
    }
    await ctx.db.patch("folders", folder._id, { parentId: args.parentId });
    return null;
  },
});
