import { describe, expect, test } from "vitest";
import { headersFileForAssets } from "../../src/vite/static-page-headers";

describe("the _headers file types pre-rendered page data", () => {
  test("one rule for every .data file, with React Router's type for page data", () => {
    const file = headersFileForAssets("");
    expect(file).toContain("\n/*.data\n  Content-Type: text/x-script\n");
    expect(file.match(/\.data\n/g)).toHaveLength(1);
  });
});
