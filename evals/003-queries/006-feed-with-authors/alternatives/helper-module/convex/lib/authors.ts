import type { QueryCtx } from "../_generated/server";
import type { Id } from "../_generated/dataModel";

/** The author's name, or "[deleted]" when the author document is gone. */
export async function authorName(ctx: QueryCtx, authorId: Id<"authors">): Promise<string> {
  const author = await ctx.db.get("authors", authorId);
  return author?.name ?? "[deleted]";
}
