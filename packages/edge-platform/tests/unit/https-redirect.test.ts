import { describe, expect, test } from "vitest";
import { httpsRedirect } from "../../src/worker/https-redirect";

describe("httpsRedirect", () => {
  test.each([
    ["http://app.example/now", "https://app.example/now"],
    ["http://app.example/items/ams?tab=1#x", "https://app.example/items/ams?tab=1#x"],
    ["http://www.app.example:8080/", "https://www.app.example:8080/"],
  ])("%s -> 308 %s", (from, to) => {
    const response = httpsRedirect(new URL(from));
    expect(response?.status).toBe(308);
    expect(response?.headers.get("location")).toBe(to);
  });

  test.each([
    "https://app.example/now",
    "http://127.0.0.1:8787/now",
    "http://localhost/",
    "http://LOCALHOST:5173/",
    "http://app.localhost/",
    "http://[::1]:8787/",
  ])("%s is answered as it is", (url) => {
    expect(httpsRedirect(new URL(url))).toBeUndefined();
  });
});
