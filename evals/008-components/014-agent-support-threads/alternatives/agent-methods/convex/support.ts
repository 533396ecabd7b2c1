import { v } from "convex/values";
import { components, internal } from "./_generated/api";
import { internalAction, mutation, query } from "./_generated/server";
import { supportAgent } from "./agents";

const vRole = v.union(v.literal("user"), v.literal("assistant"));

// The agent's own methods instead of the standalone helpers.
export const startConversation = mutation({
  args: { userId: v.string(), title: v.string() },
  returns: v.string(),
  handler: async (ctx, args) => {
    const { threadId } = await supportAgent.createThread(ctx, args);
    return threadId;
  },
});

export const ask = mutation({
  args: { threadId: v.string(), prompt: v.string() },
  returns: v.string(),
  handler: async (ctx, { threadId, prompt }) => {
    const { messageId } = await supportAgent.saveMessage(ctx, { threadId, prompt, skipEmbeddings: true });
    await ctx.scheduler.runAfter(0, internal.support.reply, { threadId, promptMessageId: messageId });
    return messageId;
  },
});

export const reply = internalAction({
  args: { threadId: v.string(), promptMessageId: v.string() },
  returns: v.null(),
  handler: async (ctx, { threadId, promptMessageId }) => {
    const { thread } = await supportAgent.continueThread(ctx, { threadId });
    await thread.generateText({ promptMessageId });
    return null;
  },
});

export const conversation = query({
  args: { threadId: v.string() },
  returns: v.array(v.object({ role: vRole, text: v.string() })),
  handler: async (ctx, { threadId }) => {
    const result = await ctx.runQuery(components.agent.messages.listMessagesByThreadId, {
      threadId,
      order: "asc",
      excludeToolMessages: true,
      paginationOpts: { cursor: null, numItems: 100 },
    });
    return result.page.flatMap((doc) =>
      doc.message?.role === "user" || doc.message?.role === "assistant"
        ? [{ role: doc.message.role, text: doc.text ?? "" }]
        : [],
    );
  },
});

export const threadsOf = query({
  args: { userId: v.string() },
  returns: v.array(v.object({ threadId: v.string(), title: v.string() })),
  handler: async (ctx, { userId }) => {
    const threads = await ctx.runQuery(components.agent.threads.listThreadsByUserId, {
      userId,
      paginationOpts: { cursor: null, numItems: 100 },
    });
    return threads.page.map((t) => ({ threadId: t._id, title: t.title ?? "" }));
  },
});
