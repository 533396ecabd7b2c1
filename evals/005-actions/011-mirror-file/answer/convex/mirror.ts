"use node";

import { createHash } from "node:crypto";
import { v } from "convex/values";
import { action } from "./_generated/server";
import { internal } from "./_generated/api";
import type { Id } from "./_generated/dataModel";

export const mirrorFile = action({
  args: { url: v.string() },
  returns: v.object({ mirrorId: v.id("mirrors"), sha256: v.string() }),
  handler: async (ctx, args): Promise<{ mirrorId: Id<"mirrors">; sha256: string }> => {
    const response = await fetch(args.url);
    if (!response.ok) {
      throw new Error(`Download failed with status ${response.status}`);
    }
    const bytes = await response.arrayBuffer();
    const sha256 = createHash("sha256").update(Buffer.from(bytes)).digest("hex");
    const type = response.headers.get("content-type") ?? "application/octet-stream";
    const storageId = await ctx.storage.store(new Blob([bytes], { type }));
    const mirrorId = await ctx.runMutation(internal.mirrors.record, {
      sourceUrl: args.url,
      storageId,
      sha256,
      size: bytes.byteLength,
    });
    return { mirrorId, sha256 };
  },
});
