import { describe, expect, test } from "vitest";
import { exactOrigins } from "../../src/vite/app-under-build.ts";
import { isCrossSiteMutation } from "../../src/worker/same-origin";

const APP = "https://app.example";

function request(method: string, headers: Record<string, string>) {
  return new Request(`${APP}/messages`, { method, headers });
}

describe("isCrossSiteMutation (packages/edge-platform/docs/contract.md C6)", () => {
  const none = new Set<string>();

  test.each(["POST", "PUT", "PATCH", "DELETE", "post"])("%s from another origin is refused", (method) => {
    expect(isCrossSiteMutation(request(method, { Origin: "https://evil.example" }), none)).toBe(true);
  });

  test.each(["GET", "HEAD", "OPTIONS"])("%s is never a mutation", (method) => {
    expect(isCrossSiteMutation(request(method, { Origin: "https://evil.example" }), none)).toBe(false);
  });

  test.each([
    ["the app's own origin", { Origin: APP }, false],
    ["Origin: null", { Origin: "null" }, true],
    ["another port", { Origin: `${APP}:8443` }, true],
    ["plain http", { Origin: "http://app.example" }, true],
    ["a subdomain", { Origin: "https://evil.app.example" }, true],
    ["same-origin fetch metadata", { "Sec-Fetch-Site": "same-origin" }, false],
    ["a typed URL (none)", { "Sec-Fetch-Site": "none" }, false],
    ["same-site fetch metadata", { "Sec-Fetch-Site": "same-site" }, true],
    ["cross-site fetch metadata", { "Sec-Fetch-Site": "cross-site" }, true],
    ["neither header (not a browser)", {}, false],
    [
      "Origin wins over fetch metadata",
      { Origin: "https://evil.example", "Sec-Fetch-Site": "same-origin" },
      true,
    ],
  ])("a POST with %s", (_, headers, refused) => {
    expect(isCrossSiteMutation(request("POST", headers), none)).toBe(refused);
  });

  test("an extra allowed origin is accepted exactly, and nothing that merely resembles it", () => {
    const extra = new Set(["https://preview.example"]);
    expect(isCrossSiteMutation(request("POST", { Origin: "https://preview.example" }), extra)).toBe(false);
    expect(isCrossSiteMutation(request("POST", { Origin: "https://x.preview.example" }), extra)).toBe(true);
    expect(isCrossSiteMutation(request("POST", { Origin: "https://preview.example:444" }), extra)).toBe(true);
  });

  test("extra origins must be exact origins: the build refuses wildcards, paths and trailing slashes", () => {
    expect(exactOrigins(["https://preview.example", "http://localhost:5173"])).toEqual([
      "https://preview.example",
      "http://localhost:5173",
    ]);
    for (const bad of [
      "https://*.preview.example",
      "https://preview.example/",
      "preview.example",
      "https://a.example/x",
    ])
      expect(() => exactOrigins([bad]), bad).toThrow(/exact origin/);
  });
});
