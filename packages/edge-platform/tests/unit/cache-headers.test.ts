import { describe, expect, test } from "vitest";
import { missingCacheHeaders, PER_REQUEST_CACHE_CONTROL } from "../../src/cache-headers";
import { headersFileForAssets } from "../../src/vite/static-page-headers";

describe("missingCacheHeaders", () => {
  test("an answer without Cache-Control gets the per-request default", () => {
    expect(missingCacheHeaders(new Headers({ "Content-Type": "text/html" }))).toEqual({
      "Cache-Control": "private, no-store",
    });
    expect(PER_REQUEST_CACHE_CONTROL).toBe("private, no-store");
  });

  test("a route that sets its own Cache-Control keeps it", () => {
    expect(missingCacheHeaders(new Headers({ "Cache-Control": "public, max-age=60" }))).toEqual({});
  });
});

describe("the _headers file types pre-rendered page data", () => {
  test("one rule for every .data file, with React Router's type for page data", () => {
    const file = headersFileForAssets("");
    expect(file).toContain("\n/*.data\n  Content-Type: text/x-script\n");
    expect(file.match(/\.data\n/g)).toHaveLength(1);
  });
});
