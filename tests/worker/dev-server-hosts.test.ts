import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { freePort, type RawResponse, rawRequest } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/**
 * DNS rebinding: `npm run dev` (Vite with @cloudflare/vite-plugin, the Worker in workerd)
 * answers only loopback names, IP addresses and the names in LOCAL_ALLOWED_HOSTS. Starts the real dev
 * server in the background, bounded in time, and stops it afterwards.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const STARTUP_MS = 90_000;

let server: ChildProcess;
let url: URL;
let output = "";

beforeAll(async () => {
  const port = await freePort();
  url = new URL(`http://127.0.0.1:${port}/`);
  server = spawn(
    process.execPath,
    // React Router's dev server as `npm run dev` starts it (scripts/react-router.ts).
    [resolve(ROOT, "scripts/react-router.ts"), "dev", "--port", String(port), "--strictPort"],
    {
      cwd: ROOT,
      env: { ...process.env, LOCAL_ALLOWED_HOSTS: "app.example, .preview.example" },
      // Its own process group, so the dev server and the workerd it starts are stopped together.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  server.stdout?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  server.stderr?.on("data", (chunk: Buffer) => {
    output += chunk;
  });
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the dev server exited:\n${output}`);
    if (Date.now() > deadline)
      throw new Error(`the dev server did not answer within ${STARTUP_MS} ms:\n${output}`);
    const ready = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, STARTUP_MS + 10_000);

afterAll(() => {
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
});

function send(host: string, path = "/", lines: string[] = []): Promise<RawResponse> {
  const head = [`GET ${path} HTTP/1.1`, `Host: ${host}`, "Connection: close", ...lines, "", ""].join("\r\n");
  return rawRequest(url, head);
}

describe("the dev server refuses hosts it does not serve", () => {
  test.each(["evil.example", "evil.example:5173", "evilapp.example", "www.app.example"])(
    "Host: %s gets 403 before the Worker runs",
    async (host) => {
      const response = await send(host);
      expect(response.status).toBe(403);
      expect(response.body).toMatch(/not allowed/);
    },
  );

  test.each(["localhost", "app.localhost", "127.0.0.1", "[::1]"])("Host: %s is served", async (hostname) => {
    const response = await send(`${hostname}:${url.port}`);
    expect(response.status).toBe(200);
    expect(response.body).toContain("<!DOCTYPE html>");
  });

  test.each(["app.example", "pr-7.preview.example"])(
    "a name from LOCAL_ALLOWED_HOSTS (%s) reaches the Worker",
    async (host) => {
      const response = await send(host, "/", ["X-Forwarded-Proto: https"]);
      expect(response.status).toBe(200);
      expect(response.body).toContain("<!DOCTYPE html>");
    },
  );
});
