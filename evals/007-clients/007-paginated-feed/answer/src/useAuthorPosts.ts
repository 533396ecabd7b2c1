import { usePaginatedQuery } from "convex/react";
import { api } from "../convex/_generated/api";

export function useAuthorPosts(author: string | null) {
  const { results, status, loadMore } = usePaginatedQuery(
    api.posts.listByAuthor,
    author === null ? "skip" : { author },
    { initialNumItems: 10 },
  );
  return {
    posts: results,
    canLoadMore: status === "CanLoadMore",
    isLoading: status === "LoadingFirstPage" || status === "LoadingMore",
    loadMore: () => loadMore(10),
  };
}
