import { v } from "convex/values";
import { userMutation, userQuery } from "./functions";

export const addNote = userMutation({
  args: { text: v.string() },
  returns: v.id("notes"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("notes", { userId: ctx.user._id, text: args.text });
  },
});

export const myNotes = userQuery({
  args: {},
  returns: v.array(v.object({ _id: v.id("notes"), text: v.string() })),
  handler: async (ctx) => {
    const notes = await ctx.db
      .query("notes")
      .withIndex("by_user", (q) => q.eq("userId", ctx.user._id))
      .collect();
    return notes.map((note) => ({ _id: note._id, text: note.text }));
  },
});
