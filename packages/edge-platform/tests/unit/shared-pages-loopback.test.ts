import { describe, expect, test } from "vitest";
import {
  checkedSharedPagesProps,
  sharedPagesProps,
  visitorFromHeader,
  visitorHeaderValue,
} from "../../src/page-cache/loopback";

/**
 * What the Worker's gateway hands its SharedPages entrypoint (packages/edge-platform/src/page-cache/loopback.ts): the
 * visitor in a header, their locale as the call's props. The entrypoint checks both again, as if they came from
 * anywhere.
 */

const SETTINGS = { locales: ["en", "ar"], defaultLocale: "en", defaultTimeZone: "UTC" };

describe("the visitor header", () => {
  test("a visitor goes there and back whole, the direction from the locale", () => {
    for (const visitor of [
      { locale: "ar", direction: "rtl", timeZone: "Asia/Tokyo" },
      { locale: "en", direction: "ltr", timeZone: "UTC" },
      { locale: "en", direction: "ltr", timeZone: null },
    ] as const) {
      expect(visitorFromHeader(visitorHeaderValue(visitor), SETTINGS)).toEqual(visitor);
    }
  });

  test.each([
    ["no header", null],
    ["not JSON", "ar"],
    ["not an object", '"ar"'],
    ["a locale the product lacks", JSON.stringify({ locale: "fr", timeZone: "UTC" })],
    ["a locale of another spelling", JSON.stringify({ locale: "AR", timeZone: "UTC" })],
    ["a zone the runtime lacks", JSON.stringify({ locale: "ar", timeZone: "Mars/Olympus" })],
    ["a zone of markup", JSON.stringify({ locale: "ar", timeZone: "<script>" })],
    ["no zone at all", JSON.stringify({ locale: "ar" })],
    ["empty", ""],
    ["4 KB", JSON.stringify({ locale: "ar", timeZone: "UTC", padding: "x".repeat(4096) })],
  ])("%s: none (the entrypoint decides from the request)", (_, value) => {
    expect(visitorFromHeader(value, SETTINGS)).toBeUndefined();
  });

  test("a direction given is ignored: it follows from the locale", () => {
    const value = JSON.stringify({ locale: "en", timeZone: "UTC", direction: "rtl" });
    expect(visitorFromHeader(value, SETTINGS)?.direction).toBe("ltr");
  });
});

describe("the props (part of Workers Cache's key)", () => {
  test("the negotiated locale and nothing else of the visitor's", () => {
    expect(sharedPagesProps({ locale: "ar", direction: "rtl", timeZone: "Asia/Tokyo" })).toEqual({
      locale: "ar",
    });
  });

  test.each([
    [{ locale: "ar" }, { locale: "ar" }],
    [{ locale: "ar", other: 1 }, { locale: "ar" }],
    [{ locale: "fr" }, undefined],
    [{}, undefined],
    [null, undefined],
    [undefined, undefined],
    ["ar", undefined],
  ])("%j: %j", (props, checked) => {
    expect(checkedSharedPagesProps(props, SETTINGS)).toEqual(checked);
  });
});
