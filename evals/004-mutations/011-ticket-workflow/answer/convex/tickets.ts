import { mutation, query } from "./_generated/server";
import type { MutationCtx } from "./_generated/server";
import type { Doc, Id } from "./_generated/dataModel";
import { ConvexError, v } from "convex/values";

const status = v.union(v.literal("open"), v.literal("in_progress"), v.literal("closed"));
type Status = Doc<"tickets">["status"];

const allowed: Record<Status, Status[]> = {
  open: ["in_progress"],
  in_progress: ["closed", "open"],
  closed: [],
};

async function load(ctx: MutationCtx, ticketId: Id<"tickets">): Promise<Doc<"tickets">> {
  const ticket = await ctx.db.get("tickets", ticketId);
  if (ticket === null) {
    throw new ConvexError({ code: "NOT_FOUND" });
  }
  return ticket;
}

export const create = mutation({
  args: {
    title: v.string(),
  },
  returns: v.id("tickets"),
  handler: async (ctx, args) => {
    return await ctx.db.insert("tickets", { title: args.title, status: "open" });
  },
});

export const assign = mutation({
  args: {
    ticketId: v.id("tickets"),
    assignee: v.string(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await load(ctx, args.ticketId);
    await ctx.db.patch("tickets", args.ticketId, { assignee: args.assignee });
    return null;
  },
});

export const move = mutation({
  args: {
    ticketId: v.id("tickets"),
    to: status,
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    const ticket = await load(ctx, args.ticketId);
    if (!allowed[ticket.status].includes(args.to)) {
      throw new ConvexError({ code: "INVALID_TRANSITION", from: ticket.status, to: args.to });
    }
    if (args.to === "closed") {
      await ctx.db.patch("tickets", args.ticketId, { status: "closed", closedAt: Date.now() });
    } else if (args.to === "open") {
      await ctx.db.patch("tickets", args.ticketId, { status: "open", assignee: undefined });
    } else {
      await ctx.db.patch("tickets", args.ticketId, { status: args.to });
    }
    return null;
  },
});

export const reset = mutation({
  args: {
    ticketId: v.id("tickets"),
    title: v.string(),
  },
  returns: v.null(),
  handler: async (ctx, args) => {
    await load(ctx, args.ticketId);
    await ctx.db.replace("tickets", args.ticketId, { title: args.title, status: "open" });
    return null;
  },
});

export const get = query({
  args: {
    ticketId: v.id("tickets"),
  },
  returns: v.union(
    v.object({
      _id: v.id("tickets"),
      _creationTime: v.number(),
      title: v.string(),
      status,
      assignee: v.optional(v.string()),
      closedAt: v.optional(v.number()),
    }),
    v.null(),
  ),
  handler: async (ctx, args) => {
    return await ctx.db.get("tickets", args.ticketId);
  },
});
