import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import { createHash } from "node:crypto";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

afterEach(() => {
  vi.unstubAllGlobals();
});

const BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3, 250, 251, 252, 253]);
const HEX = createHash("sha256").update(BYTES).digest("hex");

function stubFetch(make: () => Response) {
  const fn = vi.fn(async (_input: unknown, _init?: unknown) => make());
  vi.stubGlobal("fetch", fn);
  return fn;
}

function urlOf(input: unknown): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return (input as Request).url;
}

async function storedFiles(t: ReturnType<typeof convexTest>) {
  return await t.run(async (ctx) => await ctx.db.system.query("_storage").collect());
}

test("mirrorFile downloads, fingerprints and stores the file", async () => {
  const fetchMock = stubFetch(() => new Response(BYTES, { status: 200, headers: { "Content-Type": "image/png" } }));
  const t = convexTest(schema, modules);
  const result = await t.action(api.mirror.mirrorFile, { url: "https://files.example.com/logo.png" });
  expect(result.sha256).toBe(HEX);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(urlOf(fetchMock.mock.calls[0][0])).toBe("https://files.example.com/logo.png");
  const row = await t.run(async (ctx) => await ctx.db.get("mirrors", result.mirrorId));
  expect(row).toMatchObject({ sourceUrl: "https://files.example.com/logo.png", sha256: HEX, size: BYTES.length });
  const file = await t.run(async (ctx) => {
    const blob = await ctx.storage.get(row!.storageId);
    return blob === null ? null : { type: blob.type, bytes: Array.from(new Uint8Array(await blob.arrayBuffer())) };
  });
  expect(file).toEqual({ type: "image/png", bytes: Array.from(BYTES) });
});

test("findBySha256 returns the mirror with a URL, null for an unknown digest", async () => {
  stubFetch(() => new Response(BYTES, { status: 200, headers: { "Content-Type": "image/png" } }));
  const t = convexTest(schema, modules);
  await t.action(api.mirror.mirrorFile, { url: "https://files.example.com/a.png" });
  const { mirrorId } = await t.action(api.mirror.mirrorFile, { url: "https://files.example.com/b.png" });
  const first = await t.run(async (ctx) => (await ctx.db.query("mirrors").first())!);
  expect(first._id).not.toBe(mirrorId);
  const found = await t.query(api.mirrors.findBySha256, { sha256: HEX });
  expect(found).toMatchObject({ sourceUrl: "https://files.example.com/a.png", size: BYTES.length, storageId: first.storageId });
  expect(typeof found!.url).toBe("string");
  expect(await t.query(api.mirrors.findBySha256, { sha256: "0".repeat(64) })).toBeNull();
});

test("a failed download throws and stores nothing", async () => {
  stubFetch(() => new Response("not found", { status: 404, headers: { "Content-Type": "text/plain" } }));
  const t = convexTest(schema, modules);
  await expect(t.action(api.mirror.mirrorFile, { url: "https://files.example.com/missing" })).rejects.toThrow();
  stubFetch(() => new Response("oops", { status: 500, headers: { "Content-Type": "text/plain" } }));
  await expect(t.action(api.mirror.mirrorFile, { url: "https://files.example.com/broken" })).rejects.toThrow();
  expect(await t.run(async (ctx) => await ctx.db.query("mirrors").collect())).toHaveLength(0);
  expect(await storedFiles(t)).toHaveLength(0);
});

test("record is an internal mutation", async () => {
  const t = convexTest(schema, modules);
  const storageId = await t.run(async (ctx) => await ctx.storage.store(new Blob(["x"])));
  const id = await t.mutation(internal.mirrors.record, { sourceUrl: "u", storageId, sha256: "abc", size: 1 });
  expect(await t.run(async (ctx) => await ctx.db.get("mirrors", id))).toMatchObject({ sourceUrl: "u", sha256: "abc", size: 1 });
});
