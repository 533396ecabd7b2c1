import { v } from "convex/values";
import { internalMutation, query } from "./_generated/server";

export const sendWelcome = internalMutation({
  args: { userId: v.id("users") },
  returns: v.null(),
  handler: async (ctx, args) => {
    const user = await ctx.db.get("users", args.userId);
    if (user === null) {
      return null;
    }
    await ctx.db.insert("outbox", {
      to: user.email,
      subject: `Welcome, ${user.name}!`,
      userId: args.userId,
    });
    return null;
  },
});

export const listOutbox = query({
  args: {},
  returns: v.array(v.object({ to: v.string(), subject: v.string() })),
  handler: async (ctx) => {
    const rows = await ctx.db.query("outbox").order("asc").collect();
    return rows.map((r) => ({ to: r.to, subject: r.subject }));
  },
});
