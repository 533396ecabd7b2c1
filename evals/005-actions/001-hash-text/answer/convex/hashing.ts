"use node";

import { createHash } from "node:crypto";
import { v } from "convex/values";
import { action } from "./_generated/server";
import { internal } from "./_generated/api";

export const hashText = action({
  args: { text: v.string() },
  returns: v.string(),
  handler: async (ctx, args) => {
    const hash = createHash("sha256").update(args.text, "utf8").digest("hex");
    await ctx.runMutation(internal.hashes.saveHash, { text: args.text, hash });
    return hash;
  },
});
