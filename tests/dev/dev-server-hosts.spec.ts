import { type RawResponse, rawRequest } from "edge-platform/testing";
import { expect, test } from "edge-platform/testing/playwright";

/**
 * DNS rebinding: `npm run dev` (Vite with @cloudflare/vite-plugin, the Worker in workerd) answers only loopback
 * names, IP addresses and the names in LOCAL_ALLOWED_HOSTS. On the suite's own dev server, which
 * playwright.config.ts starts with LOCAL_ALLOWED_HOSTS="app.example, .preview.example" (a dev server of its own
 * cost the Worker suite 24 s).
 */

function send(baseURL: string | undefined, host: string, lines: string[] = []): Promise<RawResponse> {
  if (!baseURL) throw new Error("no baseURL");
  const head = [`GET / HTTP/1.1`, `Host: ${host}`, "Connection: close", ...lines, "", ""].join("\r\n");
  return rawRequest(new URL(baseURL), head);
}

test.describe("the dev server refuses hosts it does not serve", () => {
  for (const host of ["evil.example", "evil.example:5173", "evilapp.example", "www.app.example"]) {
    test(`Host: ${host} gets 403 before the Worker runs`, async ({ baseURL }) => {
      const response = await send(baseURL, host);
      expect(response.status).toBe(403);
      expect(response.body).toMatch(/not allowed/);
    });
  }

  for (const hostname of ["localhost", "app.localhost", "127.0.0.1", "[::1]"]) {
    test(`Host: ${hostname} is served`, async ({ baseURL }) => {
      const response = await send(baseURL, `${hostname}:${new URL(baseURL ?? "").port}`);
      expect(response.status).toBe(200);
      expect(response.body).toContain("<!DOCTYPE html>");
    });
  }

  for (const host of ["app.example", "pr-7.preview.example"]) {
    test(`a name from LOCAL_ALLOWED_HOSTS (${host}) reaches the Worker`, async ({ baseURL }) => {
      const response = await send(baseURL, host, ["X-Forwarded-Proto: https"]);
      expect(response.status).toBe(200);
      expect(response.body).toContain("<!DOCTYPE html>");
    });
  }
});
