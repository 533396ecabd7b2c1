import { mutation, query } from "./_generated/server";
import type { Id } from "./_generated/dataModel";
import { ConvexError, v } from "convex/values";

const MAX_BATCH = 100;

export const importBatch = mutation({
  args: {
    contacts: v.array(
      v.object({
        email: v.string(),
        name: v.string(),
      }),
    ),
  },
  returns: v.array(v.id("contacts")),
  handler: async (ctx, args) => {
    if (args.contacts.length > MAX_BATCH) {
      throw new ConvexError({ code: "TOO_MANY", max: MAX_BATCH });
    }
    const bad = args.contacts.findIndex((contact) => !contact.email.includes("@"));
    if (bad !== -1) {
      throw new ConvexError({ code: "INVALID_EMAIL", index: bad });
    }
    const ids: Id<"contacts">[] = [];
    for (const contact of args.contacts) {
      const existing = await ctx.db
        .query("contacts")
        .withIndex("by_email", (q) => q.eq("email", contact.email))
        .unique();
      if (existing !== null) {
        ids.push(existing._id);
        continue;
      }
      ids.push(await ctx.db.insert("contacts", { email: contact.email, name: contact.name }));
    }
    return ids;
  },
});

export const count = query({
  args: {},
  returns: v.number(),
  handler: async (ctx) => {
    const contacts = await ctx.db.query("contacts").collect();
    return contacts.length;
  },
});
