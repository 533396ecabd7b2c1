import { Presence } from "@convex-dev/presence";
import { v } from "convex/values";
import { components } from "./_generated/api";
import { mutation, query } from "./_generated/server";

export const presence = new Presence(components.presence);

export const heartbeat = mutation({
  args: { roomId: v.string(), userId: v.string(), sessionId: v.string(), interval: v.number() },
  returns: v.object({ roomToken: v.string(), sessionToken: v.string() }),
  handler: async (ctx, args) => {
    const { roomToken, sessionToken } = await presence.heartbeat(ctx, args.roomId, args.userId, args.sessionId, args.interval);
    return { roomToken, sessionToken };
  },
});

export const list = query({
  args: { roomToken: v.string() },
  returns: v.array(
    v.object({ userId: v.string(), online: v.boolean(), lastDisconnected: v.number(), data: v.optional(v.any()) }),
  ),
  handler: async (ctx, { roomToken }) => await presence.list(ctx, roomToken),
});

export const disconnect = mutation({
  args: { sessionToken: v.string() },
  returns: v.null(),
  handler: async (ctx, { sessionToken }) => {
    await presence.disconnect(ctx, sessionToken);
    return null;
  },
});

// Every user of the room, filtered here rather than by the component.
export const onlineUsers = query({
  args: { roomId: v.string() },
  returns: v.array(v.string()),
  handler: async (ctx, { roomId }) => {
    const everyone = await presence.listRoom(ctx, roomId);
    const online = new Set<string>();
    for (const user of everyone) {
      if (user.online) online.add(user.userId);
    }
    return Array.from(online).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  },
});
