import type { WorkerdStructuredLog } from "miniflare";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { rawHead, rawRequest } from "../../src/testing/raw-http.ts";

/**
 * The visitor on the wire (docs/i18n.md): the fixture declares English (the default) and Arabic. Every page
 * rendered for a visitor says their language, direction and zone; shared and pre-rendered copies say their
 * own; bad input gets the default, never an error or a reflection.
 */

let app: ServedBuild;
const errorLogs: WorkerdStructuredLog[] = [];

beforeAll(async () => {
  app = await serveBuild({
    buildDirectory: FIXTURE_BUILD_DIRECTORY,
    vars: TEST_VARS,
    onLog: (log) => {
      if (log.level === "error") errorLogs.push(log);
    },
  });
});

afterAll(async () => {
  await app?.close();
  expect(errorLogs.map((log) => log.message)).toEqual([]);
});

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(new URL(path, app.url), { headers, redirect: "manual" });
}

function htmlElement(page: string): string {
  return page.match(/<html\b[^>]*>/)?.[0] ?? "";
}

describe("a page rendered for the visitor", () => {
  test("an Arabic visitor: lang, dir and Content-Language, the platform's texts in Arabic", async () => {
    const response = await get("/now", {
      "Accept-Language": "ar-EG,ar;q=0.9",
      "x-local-cf-timezone": "Africa/Cairo",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Language")).toBe("ar");
    const page = await response.text();
    expect(htmlElement(page)).toMatch(
      /lang="ar" dir="rtl" data-time-zone="Africa\/Cairo" data-rendered-at="\d+"/,
    );
    expect(page).toContain('class="skip-link">تخطَّ إلى المحتوى</a>');
  });

  test("an English visitor, and one whose languages the product lacks, get the default", async () => {
    for (const language of ["en-US,en;q=0.9", "fr-FR,de;q=0.8"]) {
      const response = await get("/now", { "Accept-Language": language });
      expect(response.headers.get("Content-Language")).toBe("en");
      expect(htmlElement(await response.text())).toMatch(/lang="en" dir="ltr"/);
    }
  });

  test("the locale cookie comes before Accept-Language, the tz cookie before the edge", async () => {
    const response = await get("/now", {
      "Accept-Language": "en",
      Cookie: "locale=ar; tz=Asia%2FTokyo",
      "x-local-cf-timezone": "Africa/Cairo",
    });
    expect(htmlElement(await response.text())).toMatch(/lang="ar" dir="rtl" data-time-zone="Asia\/Tokyo"/);
  });

  test("the 404 page: the visitor's language, the contract's sentences marked English elsewhere", async () => {
    const response = await get("/no/such/page", { "Accept-Language": "ar" });
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Language")).toBe("ar");
    expect(await response.text()).toContain("تعذّر العثور على هذه الصفحة.");
  });
});

describe("bad input gets the default, never an error or a reflection", () => {
  const cases: [string, Record<string, string>][] = [
    ["an Accept-Language of 10 KB", { "Accept-Language": `ar-${"x".repeat(10_240)}` }],
    [
      "500 entries",
      { "Accept-Language": Array.from({ length: 500 }, (_, i) => `zz-${i};q=0.${i % 9}`).join(",") },
    ],
    ["*", { "Accept-Language": "*" }],
    ["malformed tags and q-values", { "Accept-Language": "en-US-x-, ;q=abc, ar;q=zz, ;;;," }],
    ["a tz cookie of Mars/Olympus", { Cookie: "tz=Mars%2FOlympus" }],
    ["a tz cookie of 4 KB", { Cookie: `tz=${"Evil".repeat(1024)}` }],
    ["a locale cookie naming an unsupported locale", { Cookie: "locale=fr" }],
    ["a malformed locale cookie", { Cookie: "locale=%3Cscript%3EEvil" }],
    ["an edge zone of markup", { "x-local-cf-timezone": "Evil/<script>" }],
  ];
  test.each(cases)("%s", async (_, headers) => {
    const response = await get("/now", headers);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(htmlElement(page)).toMatch(/lang="(en|ar)" dir="(ltr|rtl)" data-time-zone="[A-Za-z_/]+"/);
    for (const [name, value] of response.headers)
      expect(`${name}: ${value}`).not.toMatch(/Evil|Mars|zz-|xxxx/);
    expect(page).not.toMatch(/Evil|Mars\/Olympus|zz-1|xxxxxxxx/);
  });

  test("a raw header of 16 KB of language ranges still answers (or is refused by the server as too large)", async () => {
    const head = rawHead("GET", "/now", app.url, [`Accept-Language: ${"ar;q=0.5,".repeat(1_600)}`]);
    const answer = await rawRequest(app.url, head);
    expect(answer.status === 200 || answer.status === 431 || answer.status === 400).toBe(true);
  });
});

describe("copies for everyone carry no visitor", () => {
  test("a pre-rendered page is the copy in the visitor's language, without a zone", async () => {
    const cases = [
      [{ "Accept-Language": "ar-EG,ar;q=0.9", Cookie: "tz=Asia%2FTokyo" }, "ar", "rtl"],
      [{ "Accept-Language": "en", Cookie: "locale=ar" }, "ar", "rtl"],
      [{ "Accept-Language": "en-US", Cookie: "tz=Asia%2FTokyo" }, "en", "ltr"],
      [{ "Accept-Language": "fr" }, "en", "ltr"],
    ] as const;
    for (const path of ["/", "/about", "/glossary/edge"]) {
      for (const [headers, locale, direction] of cases) {
        const response = await get(path, headers);
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(200);
        expect(response.headers.get("Content-Language")).toBe(locale);
        // Its language depends on the request; its ETag (a content hash) differs per copy.
        expect(response.headers.get("Vary")).toMatch(/^Cookie, Accept-Language\b/);
        const page = await response.text();
        const html = htmlElement(page);
        expect(html).toMatch(new RegExp(`lang="${locale}" dir="${direction}"`));
        expect(html).not.toContain("data-time-zone");
        expect(page).not.toContain("Asia/Tokyo");
        if (locale === "ar") expect(page).toContain('class="skip-link">تخطَّ إلى المحتوى</a>');
      }
    }
  });

  test("each copy revalidates by its own ETag, and a HEAD says the copy's headers", async () => {
    const arabic = await get("/about", { "Accept-Language": "ar" });
    const english = await get("/about", { "Accept-Language": "en" });
    await Promise.all([arabic.text(), english.text()]);
    const arabicTag = arabic.headers.get("ETag") ?? "";
    expect(arabicTag).not.toBe("");
    expect(arabicTag).not.toBe(english.headers.get("ETag"));
    const unchanged = await get("/about", { "Accept-Language": "ar", "If-None-Match": arabicTag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("Content-Language")).toBe("ar");
    // The Arabic copy's tag does not match the English copy: the English visitor gets the page.
    const changed = await get("/about", { "Accept-Language": "en", "If-None-Match": arabicTag });
    expect(changed.status).toBe(200);
    expect(htmlElement(await changed.text())).toMatch(/lang="en"/);
    const head = await fetch(new URL("/about", app.url), {
      method: "HEAD",
      headers: { "Accept-Language": "ar" },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Language")).toBe("ar");
  });

  test("the copies have no address of their own, and page data and trailing slashes are the default's", async () => {
    const direct = await get("/__locales/ar/about");
    expect(direct.status).toBe(404);
    expect(await direct.text()).not.toContain('lang="ar" dir="rtl" data-rendered-at');
    const data = await get("/about.data", { "Accept-Language": "ar" });
    expect(data.status).toBe(200);
    expect(await data.text()).toBe(await (await get("/about.data")).text());
    const slash = await get("/about/", { "Accept-Language": "ar" });
    expect(slash.status).toBeGreaterThanOrEqual(301);
    expect(slash.status).toBeLessThanOrEqual(308);
    expect(slash.headers.get("Location")).toMatch(/^(http:\/\/[^/]+)?\/about$/);
  });

  test("a path of a static route that was not pre-rendered is rendered for the visitor, in their language", async () => {
    const response = await get("/glossary/not-a-term", { "Accept-Language": "ar" });
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Language")).toBe("ar");
    expect(await response.text()).toContain("تعذّر العثور على هذه الصفحة.");
  });

  test("a shared page is stored once per negotiated language, never with a visitor's zone or cookies", async () => {
    // A route that opts in through its `headers` (public, s-maxage), as docs/caching.md says.
    const path = `/slow/cached?visitors=${Math.random().toString(36).slice(2)}`;
    const check = async (headers: Record<string, string>, status: string, locale: "en" | "ar") => {
      const response = await get(path, headers);
      const page = await response.text();
      expect(response.headers.get("cf-cache-status")).toBe(status);
      expect(response.headers.get("Content-Language")).toBe(locale);
      expect(htmlElement(page)).toMatch(locale === "ar" ? /lang="ar" dir="rtl"/ : /lang="en" dir="ltr"/);
      expect(htmlElement(page)).not.toContain("data-time-zone");
      expect(page).not.toContain("Asia/Tokyo");
      expect(page).toContain("Rendered from the URL alone.");
      return /<time dateTime="([^"]+)"/.exec(page)?.[1];
    };
    const arabic = await check({ "Accept-Language": "ar", Cookie: "tz=Asia%2FTokyo" }, "MISS", "ar");
    const english = await check({ "Accept-Language": "en" }, "MISS", "en");
    // Another spelling of Arabic negotiates the same locale: the same copy.
    expect(await check({ "Accept-Language": "ar-EG,ar;q=0.9" }, "HIT", "ar")).toBe(arabic);
    // The locale cookie comes before Accept-Language, for the key as for the page.
    expect(await check({ "Accept-Language": "en", Cookie: "locale=ar" }, "HIT", "ar")).toBe(arabic);
    expect(await check({ "Accept-Language": "en-GB" }, "HIT", "en")).toBe(english);
  });

  test("traffic in one language keeps the hit ratio of one copy per page: 1 miss in 40, whatever its spelling", async () => {
    // Before the copies were per language the key was the URL alone: one miss, then hits. Every spelling of
    // English (and no header, and a language the product lacks) negotiates the default: the same copy.
    const path = `/slow/cached?one-language=${Math.random().toString(36).slice(2)}`;
    const spellings = ["en-US,en;q=0.9", "en-GB", "en", "", "fr-FR,de;q=0.8", "EN-us", "en-AU;q=0.5,*;q=0.1"];
    const statuses: string[] = [];
    for (let n = 0; n < 40; n++) {
      const language = spellings[n % spellings.length] ?? "";
      const response = await get(path, language ? { "Accept-Language": language } : {});
      await response.text();
      statuses.push(response.headers.get("cf-cache-status") ?? "none");
    }
    expect(statuses.filter((status) => status === "HIT")).toHaveLength(39);
    expect(statuses[0]).toBe("MISS");
  });

  test("a purge of the page's tag purges its copy in every language", async () => {
    const served = app.workersCache;
    if (!served) throw new Error("the Workers Cache emulation is off");
    const path = `/slow/cached?purged=${Math.random().toString(36).slice(2)}`;
    for (const language of ["ar", "en"]) await (await get(path, { "Accept-Language": language })).text();
    for (const language of ["ar", "en"])
      expect((await get(path, { "Accept-Language": language })).headers.get("cf-cache-status")).toBe("HIT");
    expect(served.purge({ tags: ["slow"] })).toEqual({ success: true, errors: [] });
    for (const language of ["ar", "en"])
      expect((await get(path, { "Accept-Language": language })).headers.get("cf-cache-status")).toBe("MISS");
  });
});

describe("the visitor the gateway hands its shared-pages entrypoint is its own, never a client's", () => {
  const forged = JSON.stringify({ locale: "ar", timeZone: "Asia/Tokyo" });

  test("a page rendered for the visitor: the header a client sends changes nothing", async () => {
    const response = await get("/now", { "Accept-Language": "en", "x-edge-platform-visitor": forged });
    expect(response.headers.get("Content-Language")).toBe("en");
    const page = await response.text();
    expect(htmlElement(page)).toMatch(/lang="en" dir="ltr"/);
    expect(htmlElement(page)).not.toContain("Asia/Tokyo");
  });

  test("a shared page: neither the key nor the copy follows the header", async () => {
    const path = `/slow/cached?forged=${Math.random().toString(36).slice(2)}`;
    const first = await get(path, { "Accept-Language": "en", "x-edge-platform-visitor": forged });
    expect(first.headers.get("cf-cache-status")).toBe("MISS");
    expect(first.headers.get("Content-Language")).toBe("en");
    expect(htmlElement(await first.text())).toMatch(/lang="en" dir="ltr"/);
    // The Arabic copy was never stored: the forged header did not name the key.
    const arabic = await get(path, { "Accept-Language": "ar" });
    expect(arabic.headers.get("cf-cache-status")).toBe("MISS");
    expect(arabic.headers.get("Content-Language")).toBe("ar");
    await arabic.text();
  });

  test("nor do the emulation's own headers, sent by a client", async () => {
    const path = `/slow/cached?emulation=${Math.random().toString(36).slice(2)}`;
    const response = await get(path, {
      "Accept-Language": "en",
      "x-edge-platform-workers-cache-props": JSON.stringify({ locale: "ar" }),
      "x-edge-platform-workers-cache-url": new URL("/now", app.url).href,
    });
    expect(response.headers.get("cf-cache-status")).toBe("MISS");
    expect(response.headers.get("Content-Language")).toBe("en");
    expect(await response.text()).toContain("<h1>Slow</h1>");
  });
});
