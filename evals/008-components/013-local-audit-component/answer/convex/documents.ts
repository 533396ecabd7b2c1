import { v } from "convex/values";
import { mutation, query } from "./_generated/server";
import { components } from "./_generated/api";

export const create = mutation({
  args: { title: v.string(), at: v.number() },
  returns: v.id("documents"),
  handler: async (ctx, { title, at }) => {
    const documentId = await ctx.db.insert("documents", { title, createdAt: at });
    await ctx.runMutation(components.auditLog.events.record, { subject: documentId, action: "created", at });
    return documentId;
  },
});

export const rename = mutation({
  args: { documentId: v.id("documents"), title: v.string(), at: v.number() },
  returns: v.null(),
  handler: async (ctx, { documentId, title, at }) => {
    const document = await ctx.db.get("documents", documentId);
    if (document === null) {
      throw new Error("document not found");
    }
    await ctx.db.patch("documents", documentId, { title });
    await ctx.runMutation(components.auditLog.events.record, {
      subject: documentId,
      action: `renamed to ${title}`,
      at,
    });
    return null;
  },
});

export const history = query({
  args: { documentId: v.id("documents") },
  returns: v.array(v.object({ action: v.string(), at: v.number() })),
  handler: async (ctx, { documentId }) => {
    return await ctx.runQuery(components.auditLog.events.forSubject, { subject: documentId });
  },
});
