import { vOnCompleteArgs, Workpool } from "@convex-dev/workpool";
import { ConvexError, v } from "convex/values";
import { components, internal } from "./_generated/api";
import { internalAction, internalMutation, mutation, query } from "./_generated/server";

const pool = new Workpool(components.emailWorkpool, {
  maxParallelism: 2,
  retryActionsByDefault: false,
});

export const sendEmail = internalAction({
  args: { to: v.string() },
  returns: v.string(),
  handler: async (_ctx, args) => {
    if (args.to.endsWith("@invalid.test")) {
      throw new Error(`cannot deliver to ${args.to}`);
    }
    return `delivered to ${args.to}`;
  },
});

export const queueEmail = mutation({
  args: { to: v.string() },
  returns: v.id("emails"),
  handler: async (ctx, args) => {
    const emailId = await ctx.db.insert("emails", { to: args.to, status: "queued" });
    await pool.enqueueAction(ctx, internal.emails.sendEmail, { to: args.to }, {
      onComplete: internal.emails.emailDone,
      context: { emailId },
    });
    return emailId;
  },
});

export const emailDone = internalMutation({
  args: vOnCompleteArgs(v.object({ emailId: v.id("emails") })),
  returns: v.null(),
  handler: async (ctx, args) => {
    const status = args.result.kind === "success" ? "sent" : "failed";
    await ctx.db.patch("emails", args.context.emailId, { status });
    return null;
  },
});

export const getEmail = query({
  args: { emailId: v.id("emails") },
  returns: v.object({
    to: v.string(),
    status: v.union(v.literal("queued"), v.literal("sent"), v.literal("failed")),
  }),
  handler: async (ctx, args) => {
    const email = await ctx.db.get("emails", args.emailId);
    if (email === null) {
      throw new ConvexError("Email not found");
    }
    return { to: email.to, status: email.status };
  },
});
