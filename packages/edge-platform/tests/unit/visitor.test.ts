import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatDateTime, formatRelativeTime } from "../../src/visitor/format";
import { memoize } from "../../src/visitor/memo";
import { negotiateLocale, visitorOf } from "../../src/visitor/negotiation";
import { defineTexts, fillText, platformTexts } from "../../src/visitor/texts";
import { localeDirection, validTimeZone } from "../../src/visitor/visitor";
import { localeSettings } from "../../src/vite/app-under-build";

const SETTINGS = { locales: ["en", "ja", "ar", "hi"], defaultLocale: "en", defaultTimeZone: "UTC" };

function request(headers: Record<string, string>, cf?: { timezone?: unknown }): Request {
  const plain = new Request("https://app.example/now", { headers });
  return cf ? Object.assign(plain, { cf }) : plain;
}

describe("negotiateLocale", () => {
  test.each([
    ["Tokyo's Chromium", "ja-JP,ja;q=0.9,en-US;q=0.8", "ja"],
    ["Los Angeles'", "en-US,en;q=0.9", "en"],
    ["Kolkata's", "hi-IN,hi;q=0.9,en-IN;q=0.8", "hi"],
    ["Cairo's", "ar-EG,ar;q=0.9", "ar"],
    ["a region the product does not list", "ar-MA", "ar"],
    ["q-values, not order, decide", "en;q=0.1, ja;q=0.9", "ja"],
    ["none of the product's", "fr-FR,de;q=0.8", "en"],
  ])("%s Accept-Language", (_, header, locale) => {
    expect(negotiateLocale(undefined, header, SETTINGS)).toBe(locale);
  });

  test("an explicit choice (the cookie) comes before the browser's", () => {
    expect(negotiateLocale("ar", "ja-JP", SETTINGS)).toBe("ar");
    expect(negotiateLocale("JA", null, SETTINGS)).toBe("ja");
  });

  test.each([
    ["an unsupported locale", "fr"],
    ["a malformed tag", "en_US!!"],
    ["a script injection", '"><script>alert(1)</script>'],
    ["4 KB", "a".repeat(4096)],
  ])("a cookie naming %s falls through to the browser's choice", (_, cookie) => {
    expect(negotiateLocale(cookie, "ja", SETTINGS)).toBe("ja");
  });

  test.each([
    ["*", "*"],
    ["malformed tags and q-values", "en-US-x-, ;q=abc, ja;q=zz, ;;;,"],
    ["10 KB of one tag", "x".repeat(10_240)],
    ["500 entries", Array.from({ length: 500 }, (_, i) => `zz-${i}`).join(",")],
    ["a tag longer than any locale", `ja-${"a".repeat(100)}`],
  ])("%s gets the default, never an error", (_, header) => {
    expect(negotiateLocale(undefined, header, SETTINGS)).toBe("en");
  });

  test("any header at all gives one of the product's locales", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.option(fc.string({ maxLength: 80 })),
        (header, cookie) => {
          expect(SETTINGS.locales).toContain(negotiateLocale(cookie ?? undefined, header, SETTINGS));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("visitorOf", () => {
  test("the zone: the tz cookie, then the edge's, then the default", () => {
    expect(visitorOf(request({ Cookie: "tz=Asia%2FTokyo" }, { timezone: "Africa/Cairo" }), SETTINGS)).toEqual(
      {
        locale: "en",
        direction: "ltr",
        timeZone: "Asia/Tokyo",
      },
    );
    expect(visitorOf(request({}, { timezone: "Africa/Cairo" }), SETTINGS).timeZone).toBe("Africa/Cairo");
    expect(visitorOf(request({}), SETTINGS).timeZone).toBe("UTC");
  });

  test.each([
    ["an unknown zone", "tz=Mars%2FOlympus"],
    ["4 KB", `tz=${"A".repeat(4096)}`],
    ["markup", "tz=%3Cscript%3E"],
    ["a malformed cookie header", "tz"],
  ])("a tz cookie of %s is ignored", (_, cookie) => {
    expect(visitorOf(request({ Cookie: cookie }, { timezone: "Africa/Cairo" }), SETTINGS).timeZone).toBe(
      "Africa/Cairo",
    );
  });

  test("an Arabic visitor is written right to left", () => {
    expect(visitorOf(request({ "Accept-Language": "ar-EG" }), SETTINGS)).toMatchObject({
      locale: "ar",
      direction: "rtl",
    });
  });
});

describe("localeDirection and validTimeZone", () => {
  test.each([
    ["ar", "rtl"],
    ["he", "rtl"],
    ["fa", "rtl"],
    ["ur", "rtl"],
    ["ja", "ltr"],
    ["hi", "ltr"],
    ["en", "ltr"],
  ])("%s is %s", (locale, direction) => {
    expect(localeDirection(locale)).toBe(direction);
  });

  test("zones: canonical names and aliases pass, anything else is undefined", () => {
    expect(validTimeZone("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(validTimeZone("Asia/Calcutta")).toBeDefined();
    for (const bad of ["Mars/Olympus", "", "A".repeat(65), "../etc", "Asia/Tokyo\n", 42, null]) {
      expect(validTimeZone(bad)).toBeUndefined();
    }
  });
});

describe("formatting", () => {
  const instant = "2026-11-27T23:22:13.459Z";

  test("an instant in the visitor's zone and language, no ISO string", () => {
    expect(formatDateTime(instant, { locale: "ja", timeZone: "Asia/Tokyo" })).toMatch(/2026\/11\/28/);
    expect(formatDateTime(instant, { locale: "en", timeZone: "America/Los_Angeles" })).toMatch(
      /Nov 27, 2026/,
    );
    expect(formatDateTime(instant, { locale: "ar", timeZone: "Africa/Cairo" })).not.toContain("T23");
  });

  test("relative times count from the instant given, not the clock", () => {
    expect(formatRelativeTime(instant, "2026-11-27T23:25:13.459Z", "en")).toBe("3 minutes ago");
    expect(formatRelativeTime(instant, "2026-11-28T23:22:13.459Z", "en")).toBe("yesterday");
    expect(formatRelativeTime(instant, instant, "en")).toBe("now");
  });

  test("an instant that names nothing is an error, not Invalid Date", () => {
    expect(() => formatDateTime("not a date", { locale: "en", timeZone: "UTC" })).toThrow(RangeError);
  });
});

describe("texts", () => {
  test("the platform's texts fall back to English, text by text", () => {
    expect(platformTexts("en").notFound).toBe("This page could not be found.");
    expect(platformTexts("xx").skipToContent).toBe("Skip to content");
  });

  test("a product's catalogue: its translation where it has one, the default's words elsewhere", () => {
    const texts = defineTexts({ title: "Now", more: "More" }, { ja: { title: "現在" } });
    expect(texts("ja")).toEqual({ title: "現在", more: "More" });
    expect(texts("ja-JP")).toEqual({ title: "現在", more: "More" });
    expect(texts("ar")).toEqual({ title: "Now", more: "More" });
  });

  test("placeholders are filled, unknown ones left as written", () => {
    expect(fillText("send again in {seconds} seconds {x}", { seconds: 10 })).toBe(
      "send again in 10 seconds {x}",
    );
  });
});

describe("localeSettings (the product's LOCALES, checked at build)", () => {
  test("the default is the first", () => {
    expect(localeSettings(["en", "ja"], "Asia/Tokyo")).toEqual({
      locales: ["en", "ja"],
      defaultLocale: "en",
      defaultTimeZone: "Asia/Tokyo",
    });
  });

  test.each([
    [[], "UTC", {}, /at least one/],
    [["en_US"], "UTC", {}, /canonical form/],
    [["en-us"], "UTC", {}, /write en-US/],
    [["en", "en"], "UTC", {}, /twice/],
    [["en"], "Mars/Olympus", {}, /DEFAULT_TIME_ZONE/],
    [["en"], "UTC", { fr: {} }, /PLATFORM_TEXTS: fr/],
  ])("%j, %s, %j fails the build", (locales, zone, texts, message) => {
    expect(() => localeSettings(locales, zone, texts)).toThrow(message);
  });
});

describe("memoize (Intl objects made once)", () => {
  test("computes a key once, and forgets the oldest past its limit", () => {
    const computed: string[] = [];
    const remembered = memoize(2, (key) => {
      computed.push(key);
      return key.length;
    });
    expect([remembered("a"), remembered("a"), remembered("bb"), remembered("ccc"), remembered("a")]).toEqual([
      1, 1, 2, 3, 1,
    ]);
    expect(computed).toEqual(["a", "bb", "ccc", "a"]);
  });

  test("an undefined result is remembered too", () => {
    let calls = 0;
    const remembered = memoize(4, () => {
      calls++;
      return undefined;
    });
    remembered("x");
    remembered("x");
    expect(calls).toBe(1);
  });
});
