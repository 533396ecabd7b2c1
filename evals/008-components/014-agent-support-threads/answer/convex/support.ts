import { createThread, listMessages, saveMessage } from "@convex-dev/agent";
import { v } from "convex/values";
import { components, internal } from "./_generated/api";
import { internalAction, mutation, query } from "./_generated/server";
import { supportAgent } from "./agents";

export const startConversation = mutation({
  args: { userId: v.string(), title: v.string() },
  returns: v.string(),
  handler: async (ctx, { userId, title }) => {
    return await createThread(ctx, components.agent, { userId, title });
  },
});

export const ask = mutation({
  args: { threadId: v.string(), prompt: v.string() },
  returns: v.string(),
  handler: async (ctx, { threadId, prompt }) => {
    const { messageId } = await saveMessage(ctx, components.agent, { threadId, prompt });
    await ctx.scheduler.runAfter(0, internal.support.reply, { threadId, promptMessageId: messageId });
    return messageId;
  },
});

export const reply = internalAction({
  args: { threadId: v.string(), promptMessageId: v.string() },
  returns: v.null(),
  handler: async (ctx, { threadId, promptMessageId }) => {
    await supportAgent.generateText(ctx, { threadId }, { promptMessageId });
    return null;
  },
});

export const conversation = query({
  args: { threadId: v.string() },
  returns: v.array(v.object({ role: v.union(v.literal("user"), v.literal("assistant")), text: v.string() })),
  handler: async (ctx, { threadId }) => {
    const { page } = await listMessages(ctx, components.agent, {
      threadId,
      paginationOpts: { cursor: null, numItems: 100 },
      excludeToolMessages: true,
    });
    const messages: { role: "user" | "assistant"; text: string }[] = [];
    for (const doc of page.reverse()) {
      const role = doc.message?.role;
      if ((role === "user" || role === "assistant") && !doc.tool) {
        messages.push({ role, text: doc.text ?? "" });
      }
    }
    return messages;
  },
});

export const threadsOf = query({
  args: { userId: v.string() },
  returns: v.array(v.object({ threadId: v.string(), title: v.string() })),
  handler: async (ctx, { userId }) => {
    const { page } = await ctx.runQuery(components.agent.threads.listThreadsByUserId, {
      userId,
      order: "desc",
      paginationOpts: { cursor: null, numItems: 100 },
    });
    return page.map((thread) => ({ threadId: thread._id, title: thread.title ?? "" }));
  },
});
