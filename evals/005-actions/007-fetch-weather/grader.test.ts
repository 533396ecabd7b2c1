import { convexTest } from "convex-test";
import { afterEach, expect, test, vi } from "vitest";
import schema from "./convex/schema";
import { api, internal } from "./convex/_generated/api";
const modules = import.meta.glob("./convex/**/*.*s");

afterEach(() => {
  vi.unstubAllGlobals();
});

// A fetch stand-in answering with the given responses in turn (the last one repeats).
function stubFetch(...responses: (() => Response)[]) {
  let n = 0;
  const fn = vi.fn(async (_input: unknown, _init?: unknown) => responses[Math.min(n++, responses.length - 1)]());
  vi.stubGlobal("fetch", fn);
  return fn;
}

function urlOf(input: unknown): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return (input as Request).url;
}

const json = (body: unknown, status = 200) => () =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

test("refreshForecast calls the weather API and saves the temperature", async () => {
  const fetchMock = stubFetch(json({ temperatureC: 21.5 }));
  const t = convexTest(schema, modules);
  const before = Date.now();
  expect(await t.action(api.weather.refreshForecast, { city: "Paris" })).toEqual({ ok: true, temperatureC: 21.5 });
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(urlOf(fetchMock.mock.calls[0][0])).toBe("https://weather.example.com/v1/current?city=Paris");
  expect(await t.query(api.weather.getForecast, { city: "Paris" })).toEqual({ city: "Paris", temperatureC: 21.5 });
  const rows = await t.run(async (ctx) => await ctx.db.query("forecasts").collect());
  expect(rows).toHaveLength(1);
  expect(rows[0].fetchedAt).toBeGreaterThanOrEqual(before);
  expect(rows[0].fetchedAt).toBeLessThanOrEqual(Date.now());
});

test("a second refresh updates the same row", async () => {
  stubFetch(json({ temperatureC: 3 }), json({ temperatureC: -2 }));
  const t = convexTest(schema, modules);
  await t.action(api.weather.refreshForecast, { city: "Oslo" });
  expect(await t.action(api.weather.refreshForecast, { city: "Oslo" })).toEqual({ ok: true, temperatureC: -2 });
  const rows = await t.run(async (ctx) => await ctx.db.query("forecasts").collect());
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ city: "Oslo", temperatureC: -2 });
});

test("a non-2xx answer returns ok false with the status and saves nothing", async () => {
  stubFetch(() => new Response("Service Unavailable", { status: 503 }));
  const t = convexTest(schema, modules);
  expect(await t.action(api.weather.refreshForecast, { city: "Lima" })).toEqual({ ok: false, status: 503 });
  stubFetch(() => new Response("not found", { status: 404 }));
  expect(await t.action(api.weather.refreshForecast, { city: "Lima" })).toEqual({ ok: false, status: 404 });
  expect(await t.run(async (ctx) => await ctx.db.query("forecasts").collect())).toHaveLength(0);
  expect(await t.query(api.weather.getForecast, { city: "Lima" })).toBeNull();
});

test("a failed refresh keeps the previous forecast", async () => {
  stubFetch(json({ temperatureC: 30 }), () => new Response("oops", { status: 500 }));
  const t = convexTest(schema, modules);
  await t.action(api.weather.refreshForecast, { city: "Cairo" });
  expect(await t.action(api.weather.refreshForecast, { city: "Cairo" })).toEqual({ ok: false, status: 500 });
  expect(await t.query(api.weather.getForecast, { city: "Cairo" })).toEqual({ city: "Cairo", temperatureC: 30 });
});

test("saveForecast is an internal upsert", async () => {
  const t = convexTest(schema, modules);
  expect(await t.mutation(internal.weather.saveForecast, { city: "Rome", temperatureC: 18 })).toBeNull();
  await t.mutation(internal.weather.saveForecast, { city: "Rome", temperatureC: 19 });
  await t.mutation(internal.weather.saveForecast, { city: "Bern", temperatureC: 7 });
  const rows = await t.run(async (ctx) => await ctx.db.query("forecasts").collect());
  expect(rows.map((r) => [r.city, r.temperatureC]).sort()).toEqual([["Bern", 7], ["Rome", 19]]);
});
