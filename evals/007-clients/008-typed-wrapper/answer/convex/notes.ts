import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const create = mutation({
  args: { title: v.string(), body: v.string() },
  returns: v.id("notes"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("notes", { title: args.title, body: args.body, pinned: false });
  },
});

export const setPinned = mutation({
  args: { id: v.id("notes"), pinned: v.boolean() },
  returns: v.null(),
  handler: async (ctx, args) => {
    const note = await ctx.db.get("notes", args.id);
    if (note === null) {
      throw new Error("Note not found");
    }
    await ctx.db.patch("notes", args.id, { pinned: args.pinned });
    return null;
  },
});

export const listPinned = query({
  args: {},
  returns: v.array(v.object({ _id: v.id("notes"), title: v.string() })),
  handler: async (ctx) => {
    const notes = await ctx.db
      .query("notes")
      .withIndex("by_pinned", (q) => q.eq("pinned", true))
      .order("asc")
      .collect();
    return notes.map((n) => ({ _id: n._id, title: n.title }));
  },
});

export const get = query({
  args: { id: v.id("notes") },
  returns: v.union(
    v.null(),
    v.object({
      _id: v.id("notes"),
      _creationTime: v.number(),
      title: v.string(),
      body: v.string(),
      pinned: v.boolean(),
    }),
  ),
  handler: async (ctx, args) => {
    return await ctx.db.get("notes", args.id);
  },
});
