import { convexTest } from "convex-test";
import { beforeEach, expect, test, vi } from "vitest";
import { getFunctionName } from "convex/server";
import schema from "./convex/schema";
import { api } from "./convex/_generated/api";
import { useAuthorPosts } from "./src/useAuthorPosts";
const modules = import.meta.glob("./convex/**/*.*s");

const mocks = vi.hoisted(() => ({ usePaginatedQuery: vi.fn() }));
vi.mock("convex/react", () => ({ usePaginatedQuery: mocks.usePaginatedQuery }));

beforeEach(() => {
  mocks.usePaginatedQuery.mockReset();
});

function hookResult(status: string, results: unknown[] = []) {
  const loadMore = vi.fn();
  return { results, status, isLoading: status.startsWith("Loading"), loadMore };
}

test("backend: listByAuthor pages through one author's posts newest first", async () => {
  const t = convexTest(schema, modules);
  for (const text of ["a1", "a2", "a3"]) {
    await t.mutation(api.posts.create, { author: "ada", text });
  }
  await t.mutation(api.posts.create, { author: "bob", text: "b1" });
  const first = await t.query(api.posts.listByAuthor, { author: "ada", paginationOpts: { numItems: 2, cursor: null } });
  expect(first.page.map((p) => p.text)).toEqual(["a3", "a2"]);
  expect(first.page[0]).toMatchObject({ author: "ada", text: "a3" });
  expect(typeof first.page[0]._id).toBe("string");
  expect(typeof first.page[0]._creationTime).toBe("number");
  expect(first.isDone).toBe(false);
  const second = await t.query(api.posts.listByAuthor, {
    author: "ada",
    paginationOpts: { numItems: 2, cursor: first.continueCursor },
  });
  expect(second.page.map((p) => p.text)).toEqual(["a1"]);
  expect(second.isDone).toBe(true);
  const none = await t.query(api.posts.listByAuthor, { author: "zed", paginationOpts: { numItems: 5, cursor: null } });
  expect(none.page).toEqual([]);
  expect(none.isDone).toBe(true);
});

test("useAuthorPosts calls usePaginatedQuery with the author and 10 initial items", () => {
  const rows = [{ text: "x" }];
  mocks.usePaginatedQuery.mockReturnValue(hookResult("CanLoadMore", rows));
  const result = useAuthorPosts("ada");
  expect(mocks.usePaginatedQuery).toHaveBeenCalledTimes(1);
  const [ref, args, options] = mocks.usePaginatedQuery.mock.calls[0];
  expect(getFunctionName(ref)).toBe("posts:listByAuthor");
  expect(args).toEqual({ author: "ada" });
  expect(options).toEqual({ initialNumItems: 10 });
  expect(result.posts).toBe(rows);
});

test("useAuthorPosts skips the query when there is no author", () => {
  mocks.usePaginatedQuery.mockReturnValue(hookResult("LoadingFirstPage"));
  useAuthorPosts(null);
  expect(mocks.usePaginatedQuery).toHaveBeenCalledTimes(1);
  const [ref, args, options] = mocks.usePaginatedQuery.mock.calls[0];
  expect(getFunctionName(ref)).toBe("posts:listByAuthor");
  expect(args).toBe("skip");
  expect(options).toEqual({ initialNumItems: 10 });
});

test("useAuthorPosts maps the status to canLoadMore and isLoading", () => {
  const expected: Record<string, { canLoadMore: boolean; isLoading: boolean }> = {
    LoadingFirstPage: { canLoadMore: false, isLoading: true },
    CanLoadMore: { canLoadMore: true, isLoading: false },
    LoadingMore: { canLoadMore: false, isLoading: true },
    Exhausted: { canLoadMore: false, isLoading: false },
  };
  for (const [status, flags] of Object.entries(expected)) {
    mocks.usePaginatedQuery.mockReturnValue(hookResult(status));
    const result = useAuthorPosts("ada");
    expect({ canLoadMore: result.canLoadMore, isLoading: result.isLoading }, status).toEqual(flags);
  }
});

test("loadMore() asks the hook for 10 more items", () => {
  const state = hookResult("CanLoadMore", [{ text: "x" }]);
  mocks.usePaginatedQuery.mockReturnValue(state);
  const result = useAuthorPosts("ada");
  expect(state.loadMore).not.toHaveBeenCalled();
  result.loadMore();
  expect(state.loadMore).toHaveBeenCalledTimes(1);
  expect(state.loadMore).toHaveBeenCalledWith(10);
});
