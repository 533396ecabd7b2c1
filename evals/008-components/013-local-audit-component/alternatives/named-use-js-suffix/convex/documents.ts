import { v } from "convex/values";
import { components } from "./_generated/api";
import { mutation, query, type MutationCtx } from "./_generated/server";
import type { Id } from "./_generated/dataModel";

async function audit(ctx: MutationCtx, documentId: Id<"documents">, action: string, at: number) {
  await ctx.runMutation(components.auditLog.events.record, { subject: documentId, action, at });
}

export const create = mutation({
  args: { title: v.string(), at: v.number() },
  returns: v.id("documents"),
  handler: async (ctx, { title, at }) => {
    const id = await ctx.db.insert("documents", { title, createdAt: at });
    await audit(ctx, id, "created", at);
    return id;
  },
});

export const rename = mutation({
  args: { documentId: v.id("documents"), title: v.string(), at: v.number() },
  returns: v.null(),
  handler: async (ctx, { documentId, title, at }) => {
    const existing = await ctx.db.get("documents", documentId);
    if (!existing) throw new Error(`no document ${documentId}`);
    const { _id, _creationTime, ...fields } = existing;
    await ctx.db.replace("documents", documentId, { ...fields, title });
    await audit(ctx, documentId, `renamed to ${title}`, at);
    return null;
  },
});

export const history = query({
  args: { documentId: v.id("documents") },
  returns: v.array(v.object({ action: v.string(), at: v.number() })),
  handler: async (ctx, { documentId }) =>
    await ctx.runQuery(components.auditLog.events.forSubject, { subject: String(documentId) }),
});
