import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

function stubFetch(make: () => Response) {
  const fn = vi.fn(async (_input: unknown, _init?: RequestInit) => make());
  vi.stubGlobal("fetch", fn);
  return fn;
}

const translated = (translation: string) => () =>
  new Response(JSON.stringify({ translation }), { status: 200, headers: { "Content-Type": "application/json" } });

async function errorCode(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    const data = (e as { data?: { code?: unknown; message?: unknown } }).data;
    expect(typeof data?.message).toBe("string");
    return data?.code;
  }
  throw new Error("expected the call to throw");
}

test("translate posts to the API with the key from TRANSLATE_API_KEY and saves the result", async () => {
  vi.stubEnv("TRANSLATE_API_KEY", "key-123");
  const fetchMock = stubFetch(translated("bonjour"));
  const t = convexTest(schema, modules);
  expect(await t.action(api.translate.translate, { text: "hello", target: "fr" })).toBe("bonjour");
  expect(fetchMock).toHaveBeenCalledTimes(1);
  const [url, init] = fetchMock.mock.calls[0];
  expect(String(url)).toBe("https://translate.example.com/v2/translate");
  expect(init?.method).toBe("POST");
  const headers = new Headers(init?.headers);
  expect(headers.get("authorization")).toBe("Bearer key-123");
  expect(headers.get("content-type")).toContain("application/json");
  expect(JSON.parse(String(init?.body))).toEqual({ text: "hello", target: "fr" });
  expect(await t.query(api.translations.getSaved, { text: "hello", target: "fr" })).toBe("bonjour");
  expect(await t.query(api.translations.getSaved, { text: "hello", target: "de" })).toBeNull();
});

test("the key is read when the action runs, not when the module loads", async () => {
  const fetchMock = stubFetch(translated("hallo"));
  const t = convexTest(schema, modules);
  vi.stubEnv("TRANSLATE_API_KEY", "rotated-key");
  await t.action(api.translate.translate, { text: "hello", target: "de" });
  expect(new Headers(fetchMock.mock.calls[0][1]?.headers).get("authorization")).toBe("Bearer rotated-key");
});

test("a missing key throws MISSING_CONFIG without calling fetch", async () => {
  vi.stubEnv("TRANSLATE_API_KEY", "");
  const fetchMock = stubFetch(translated("x"));
  const t = convexTest(schema, modules);
  expect(await errorCode(t.action(api.translate.translate, { text: "hello", target: "fr" }))).toBe("MISSING_CONFIG");
  expect(fetchMock).not.toHaveBeenCalled();
});

test("a non-2xx answer throws UPSTREAM_ERROR and saves nothing", async () => {
  vi.stubEnv("TRANSLATE_API_KEY", "key-123");
  stubFetch(() => new Response(JSON.stringify({ error: "quota exceeded" }), { status: 429, headers: { "Content-Type": "application/json" } }));
  const t = convexTest(schema, modules);
  expect(await errorCode(t.action(api.translate.translate, { text: "hello", target: "fr" }))).toBe("UPSTREAM_ERROR");
  expect(await t.run(async (ctx) => await ctx.db.query("translations").collect())).toHaveLength(0);
});

test("getSaved returns the most recent translation", async () => {
  const t = convexTest(schema, modules);
  expect(await t.mutation(internal.translations.save, { text: "cat", target: "de", translation: "Katze" })).toBeNull();
  await t.mutation(internal.translations.save, { text: "cat", target: "de", translation: "die Katze" });
  expect(await t.query(api.translations.getSaved, { text: "cat", target: "de" })).toBe("die Katze");
});

test("appInfo reads APP_NAME, defaulting to Untitled", async () => {
  const t = convexTest(schema, modules);
  vi.stubEnv("APP_NAME", "Lingo");
  expect(await t.query(api.translations.appInfo, {})).toEqual({ appName: "Lingo" });
  vi.stubEnv("APP_NAME", "");
  expect(await t.query(api.translations.appInfo, {})).toEqual({ appName: "Untitled" });
});
