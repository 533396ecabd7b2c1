import type { MutationCtx } from "../_generated/server";
import type { Id } from "../_generated/dataModel";

/** Keeps the post's denormalised fields in step with its comments. */
export async function bumpCommentCount(
  ctx: MutationCtx,
  postId: Id<"posts">,
  delta: 1 | -1,
  lastCommentAt?: number,
): Promise<void> {
  const post = await ctx.db.get("posts", postId);
  if (post === null) {
    return;
  }
  await ctx.db.patch("posts", postId, {
    commentCount: post.commentCount + delta,
    ...(lastCommentAt === undefined ? {} : { lastCommentAt }),
  });
}
