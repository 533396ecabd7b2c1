import { mutation, query } from "./_generated/server";
import type { MutationCtx } from "./_generated/server";
import type { Id } from "./_generated/dataModel";
import { ConvexError, v } from "convex/values";

export const create = mutation({
  args: {
    name: v.string(),
    nickname: v.optional(v.string()),
  },
  returns: v.id("contacts"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("contacts", {
      name: args.name,
      nickname: args.nickname,
      archivedAt: null,
    });
  },
});

async function setArchivedAt(
  ctx: MutationCtx,
  contactId: Id<"contacts">,
  archivedAt: number | null,
) {
  const contact = await ctx.db.get("contacts", contactId);
  if (contact === null) {
    throw new ConvexError("Contact not found");
  }
  await ctx.db.patch("contacts", contactId, { archivedAt });
}

export const archive = mutation({
  args: {
    contactId: v.id("contacts"),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await setArchivedAt(ctx, args.contactId, Date.now());
    return null;
  },
});

export const restore = mutation({
  args: {
    contactId: v.id("contacts"),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await setArchivedAt(ctx, args.contactId, null);
    return null;
  },
});

export const listActive = query({
  args: {},
  returns: v.array(v.string()),
  handler: async (ctx) => {
    const contacts = await ctx.db
      .query("contacts")
      .withIndex("by_archived", (q) => q.eq("archivedAt", null))
      .collect();
    return contacts.map((c) => c.name);
  },
});

export const get = query({
  args: {
    contactId: v.id("contacts"),
  },
  returns: v.union(
    v.object({
      _id: v.id("contacts"),
      _creationTime: v.number(),
      name: v.string(),
      nickname: v.optional(v.string()),
      archivedAt: v.union(v.number(), v.null()),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db.get("contacts", args.contactId);
  },
});
