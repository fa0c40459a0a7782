import { describe, expect, test } from "vitest";
import {
  isOwnPagesTrace,
  RELATIVE_URL,
  tracePropagationTargets,
} from "../../src/reporting/trace-propagation";

function propagates(url: string, origins: string[]): boolean {
  return [RELATIVE_URL, ...tracePropagationTargets(origins)].some((target) => target.test(url));
}

describe("where a trace may go", () => {
  const own = "https://app.example.com";

  test.each([
    "/items.data",
    "/messages?index",
    "https://app.example.com/items.data",
    "https://app.example.com",
    "https://APP.example.com/x",
    "https://app.example.com?x=1",
  ])("to the app's own origin: %s", (url) => {
    expect(propagates(url, [own])).toBe(true);
  });

  test.each([
    "//evil.example/x",
    "https://app.example.com.evil.net/",
    "https://app.example.comx/",
    "https://evil.example/?u=https://app.example.com/",
    "http://app.example.com/",
    "https://app.example.com:8443/",
    "https://api.example.com/",
    "http://localhost/",
  ])("never elsewhere: %s", (url) => {
    expect(propagates(url, [own])).toBe(false);
  });

  test("to a configured origin, and only that one", () => {
    expect(propagates("https://api.example.com/v1", [own, "https://api.example.com"])).toBe(true);
    expect(propagates("https://api.example.com.evil.net/", [own, "https://api.example.com"])).toBe(false);
  });
});

describe("whose trace decides", () => {
  test.each([
    ["same-origin", true],
    ["same-site", false],
    ["cross-site", false],
    ["none", false],
    [null, false],
  ])("Sec-Fetch-Site %s: %s", (site, trusted) => {
    const headers = new Headers(site ? { "sec-fetch-site": site } : {});
    expect(isOwnPagesTrace(headers)).toBe(trusted);
  });
});
