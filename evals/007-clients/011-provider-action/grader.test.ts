import { convexTest } from "convex-test";
import { beforeEach, expect, test, vi } from "vitest";
import { getFunctionName } from "convex/server";
import { ConvexError } from "convex/values";
import type { ConvexReactClient } from "convex/react";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
import { ConvexClientProvider, createConvexClient } from "./src/ConvexClientProvider";
import { useSummarize } from "./src/useSummarize";
const modules = import.meta.glob("./convex/**/*.*s");

const mocks = vi.hoisted(() => ({
  useAction: vi.fn(),
  ConvexProvider: function ConvexProvider(_props: unknown) {
    return null;
  },
  ConvexReactClient: class ConvexReactClient {
    constructor(public address: string) {}
  },
}));
vi.mock("convex/react", () => ({
  useAction: mocks.useAction,
  ConvexProvider: mocks.ConvexProvider,
  ConvexReactClient: mocks.ConvexReactClient,
}));

beforeEach(() => {
  mocks.useAction.mockReset();
});

test("backend: summarize returns and records word and character counts", async () => {
  const t = convexTest(schema, modules);
  expect(await t.action(api.summaries.summarize, { text: "hello big  world" })).toEqual({ words: 3, chars: 16 });
  expect(await t.action(api.summaries.summarize, { text: "one" })).toEqual({ words: 1, chars: 3 });
  const rows = await t.run(async (ctx) => await ctx.db.query("summaries").collect());
  expect(rows.map((r) => ({ words: r.words, chars: r.chars }))).toEqual([
    { words: 3, chars: 16 },
    { words: 1, chars: 3 },
  ]);
});

test("backend: summarize rejects empty text with ConvexError EMPTY_TEXT", async () => {
  const t = convexTest(schema, modules);
  for (const text of ["", "   \n"]) {
    let caught: unknown;
    try {
      await t.action(api.summaries.summarize, { text });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConvexError);
    expect((caught as ConvexError<any>).data).toMatchObject({ code: "EMPTY_TEXT" });
  }
  expect(await t.run(async (ctx) => await ctx.db.query("summaries").collect())).toEqual([]);
});

test("backend: recent returns the last 3 summaries newest first", async () => {
  const t = convexTest(schema, modules);
  expect(await t.query(api.summaries.recent, {})).toEqual([]);
  for (let i = 1; i <= 5; i++) {
    await t.mutation(internal.summaries.record, { words: i, chars: i * 10 });
  }
  expect(await t.query(api.summaries.recent, {})).toEqual([
    { words: 5, chars: 50 },
    { words: 4, chars: 40 },
    { words: 3, chars: 30 },
  ]);
});

test("createConvexClient builds a ConvexReactClient for the URL", () => {
  const client = createConvexClient("https://happy-otter-123.convex.cloud") as unknown as { address: string };
  expect(client).toBeInstanceOf(mocks.ConvexReactClient);
  expect(client.address).toBe("https://happy-otter-123.convex.cloud");
});

test("ConvexClientProvider renders a ConvexProvider with the client around its children", () => {
  const client = new mocks.ConvexReactClient("https://x.convex.cloud") as unknown as ConvexReactClient;
  const element = ConvexClientProvider({ client, children: "app" }) as any;
  expect(element.type).toBe(mocks.ConvexProvider);
  expect(element.props.client).toBe(client);
  expect(element.props.children).toBe("app");
});

test("useSummarize runs api.summaries.summarize through useAction", async () => {
  const t = convexTest(schema, modules);
  mocks.useAction.mockImplementation((ref: any) => (args: any) => t.action(ref, args));
  const summarize = useSummarize();
  expect(mocks.useAction).toHaveBeenCalledTimes(1);
  expect(getFunctionName(mocks.useAction.mock.calls[0][0])).toBe("summaries:summarize");
  expect(await summarize("a b c")).toEqual({ ok: true, words: 3, chars: 5 });
  expect(await summarize("  ")).toEqual({ ok: false, code: "EMPTY_TEXT" });
  expect(await t.query(api.summaries.recent, {})).toEqual([{ words: 3, chars: 5 }]);
});

test("useSummarize re-throws errors that are not ConvexError", async () => {
  const boom = new Error("offline");
  mocks.useAction.mockReturnValue(async () => {
    throw boom;
  });
  const summarize = useSummarize();
  await expect(summarize("a b")).rejects.toBe(boom);
});
