"use node";

import { gunzipSync, gzipSync } from "node:zlib";
import { v } from "convex/values";
import { action } from "./_generated/server";
import type { Id } from "./_generated/dataModel";
import { internal } from "./_generated/api";

export const compress = action({
  args: { text: v.string() },
  returns: v.id("archives"),
  handler: async (ctx, args): Promise<Id<"archives">> => {
    const compressed = gzipSync(Buffer.from(args.text, "utf8")).toString("base64");
    return await ctx.runMutation(internal.archives.insert, {
      compressed,
      originalLength: args.text.length,
    });
  },
});

export const decompress = action({
  args: { id: v.id("archives") },
  returns: v.union(v.string(), v.null()),
  handler: async (ctx, args): Promise<string | null> => {
    const row = await ctx.runQuery(internal.archives.get, { id: args.id });
    if (row === null) {
      return null;
    }
    return gunzipSync(Buffer.from(row.compressed, "base64")).toString("utf8");
  },
});
