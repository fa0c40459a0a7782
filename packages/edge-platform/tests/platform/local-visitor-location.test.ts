import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

/**
 * A visitor from anywhere, locally (packages/edge-platform/src/visitor/local-cf.ts): the local server
 * gives the app `request.cf.timezone` and `.country` from `x-local-cf-timezone` and `x-local-cf-country`
 * when they look sane, the rest of `request.cf` as it is without them, and never the headers themselves. The
 * fixture's /request-cf answers the Worker's `request.cf` and the names of any `x-local-cf-*` headers it
 * received.
 */

type Seen = { cf: Record<string, unknown> | null; localHeaders: string[]; cacheStatus: string | null };

const TOKYO = { "x-local-cf-timezone": "Asia/Tokyo", "x-local-cf-country": "jp" };

/** What `request.cf` holds besides the two fields the headers give. */
function rest(cf: Record<string, unknown> | null): Record<string, unknown> {
  const { timezone: _timezone, country: _country, ...others } = cf ?? {};
  return others;
}

describe.each([
  { path: "through the Workers Cache emulation", enabled: true, padding: false },
  { path: "straight to the app (Workers Cache off)", enabled: false, padding: false },
  // A header section Node's parser would refuse: the guard hands it to the app itself (host-guard.ts).
  { path: "past the emulation (Workers Cache on, a large header)", enabled: true, padding: true },
])("$path", ({ enabled, padding }) => {
  let app: ServedBuild;

  beforeAll(async () => {
    app = await serveBuild({
      buildDirectory: FIXTURE_BUILD_DIRECTORY,
      vars: TEST_VARS,
      workersCache: { enabled },
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  async function seen(headers: Record<string, string> = {}): Promise<Seen> {
    const response = await fetch(new URL("/request-cf", app.url), {
      headers: { ...headers, ...(padding && { "X-Padding": "x".repeat(13 * 1024) }) },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Omit<Seen, "cacheStatus">;
    return { ...body, cacheStatus: response.headers.get("cf-cache-status") };
  }

  test("a page rendered per request is answered by the gateway, never through the cache", async () => {
    expect((await seen()).cacheStatus).toBeNull();
  });

  test("the headers make the visit one from Tokyo, and reach the app only as request.cf", async () => {
    const without = await seen();
    const tokyo = await seen(TOKYO);
    expect(tokyo.cf).toMatchObject({ timezone: "Asia/Tokyo", country: "JP" });
    expect(tokyo.localHeaders).toEqual([]);
    expect(rest(tokyo.cf)).toEqual(rest(without.cf));
  });

  test("either header alone gives its own field only", async () => {
    const without = await seen();
    const zone = await seen({ "x-local-cf-timezone": "Etc/GMT-9" });
    expect(zone.cf?.timezone).toBe("Etc/GMT-9");
    expect(zone.cf?.country).toBe(without.cf?.country);
    const country = await seen({ "x-local-cf-country": "NZ" });
    expect(country.cf?.country).toBe("NZ");
    expect(country.cf?.timezone).toBe(without.cf?.timezone);
  });

  // Latin-1 bytes past ASCII: what a header can carry (fetch refuses more).
  test.each([
    ["Asia/Tokyo; Path=/", "JPN"],
    ["../../etc/passwd", "J1"],
    ["A".repeat(65), ""],
    ["Asia/T\u00f6ky\u00f6", "\u00c9\u00c9"],
    ["Asia/Tokyo, Europe/Paris", "JP, FR"],
  ])("malformed values are ignored, and the headers still taken out: %s, %s", async (timezone, country) => {
    const without = await seen();
    const malformed = await seen({ "x-local-cf-timezone": timezone, "x-local-cf-country": country });
    expect(malformed.cf).toEqual(without.cf);
    expect(malformed.localHeaders).toEqual([]);
  });

  test("no x-local-cf-* header reaches the app, whatever its name", async () => {
    const without = await seen();
    const other = await seen({ "x-local-cf-colo": "NRT", "X-Local-CF-City": "Tokyo" });
    expect(other.localHeaders).toEqual([]);
    expect(other.cf).toEqual(without.cf);
  });
});
