import { v } from "convex/values";
import { action, internalMutation, query } from "./_generated/server";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";

export const saveNote = action({
  args: { title: v.string(), body: v.string() },
  returns: v.id("notes"),
  handler: async (ctx, args): Promise<Id<"notes">> => {
    const storageId = await ctx.storage.store(new Blob([args.body], { type: "text/plain" }));
    return await ctx.runMutation(internal.notes.insertNote, {
      title: args.title,
      storageId,
    });
  },
});

export const insertNote = internalMutation({
  args: { title: v.string(), storageId: v.id("_storage") },
  returns: v.id("notes"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("notes", { title: args.title, storageId: args.storageId });
  },
});

export const getNoteUrl = query({
  args: { noteId: v.id("notes") },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, args) => {
    const note = await ctx.db.get("notes", args.noteId);
    if (note === null) {
      return null;
    }
    return await ctx.storage.getUrl(note.storageId);
  },
});
