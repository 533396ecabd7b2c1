import { v } from "convex/values";
import { mutation, query } from "./_generated/server";

export const generateUploadUrl = mutation({
  args: {},
  returns: v.string(),
  handler: async (ctx) => {
    return await ctx.storage.generateUploadUrl();
  },
});

export const saveAttachment = mutation({
  args: { name: v.string(), storageId: v.id("_storage") },
  returns: v.id("attachments"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("attachments", { name: args.name, storageId: args.storageId });
  },
});

export const listAttachments = query({
  args: {},
  returns: v.array(
    v.object({ _id: v.id("attachments"), name: v.string(), url: v.union(v.string(), v.null()) }),
  ),
  handler: async (ctx) => {
    const attachments = await ctx.db.query("attachments").order("asc").collect();
    return await Promise.all(
      attachments.map(async (a) => ({
        _id: a._id,
        name: a.name,
        url: await ctx.storage.getUrl(a.storageId),
      })),
    );
  },
});

export const getFileInfo = query({
  args: { attachmentId: v.id("attachments") },
  returns: v.union(v.object({ size: v.number(), sha256: v.string() }), v.null()),
  handler: async (ctx, args) => {
    const attachment = await ctx.db.get("attachments", args.attachmentId);
    if (attachment === null) {
      return null;
    }
    const file = await ctx.db.system.get("_storage", attachment.storageId);
    return file === null ? null : { size: file.size, sha256: file.sha256 };
  },
});

export const deleteAttachment = mutation({
  args: { attachmentId: v.id("attachments") },
  returns: v.boolean(),
  handler: async (ctx, args) => {
    const attachment = await ctx.db.get("attachments", args.attachmentId);
    if (attachment === null) {
      return false;
    }
    await ctx.storage.delete(attachment.storageId);
    await ctx.db.delete("attachments", args.attachmentId);
    return true;
  },
});
