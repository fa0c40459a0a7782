import { describe, expect, test } from "vitest";
import { headersFileForAssets, PAGE_DATA_CONTENT_TYPE } from "../../src/vite/static-page-headers";

describe("the _headers file types pre-rendered page data", () => {
  test("one rule for every .data file, with React Router's type for page data", () => {
    const file = headersFileForAssets("");
    expect(file).toContain(`\n/*.data\n  Content-Type: ${PAGE_DATA_CONTENT_TYPE}\n`);
    expect(PAGE_DATA_CONTENT_TYPE).toBe("text/x-script");
    expect(file.match(/\.data\n/g)).toHaveLength(1);
  });
});
