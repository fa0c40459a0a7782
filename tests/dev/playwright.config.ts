import { resolve } from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, freePort } from "edge-platform/testing";

// Playwright reads this file again in each worker: the port picked first reaches them through the
// environment, which they inherit.
process.env.DEV_SERVER_PORT ??= String(await freePort());
const PORT = Number(process.env.DEV_SERVER_PORT);

/**
 * `npm run test:dev`: real Chromium against `npm run dev` (Vite and the Worker in workerd), the
 * way a developer runs the app. Playwright starts the server in its own process group and
 * stops the whole group when the run ends, passed or failed.
 */
export default defineConfig({
  testDir: ".",
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: "list",
  timeout: 60_000,
  // A wait catches a hang, with room for a busy machine: speed is measured by the benchmarks, not here.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Recording a trace for every test cost a third of the suite's time (measured: 28 browser tests, 51 s
    // without, 69 s with); to see one, run the failing test again with `-- --trace on`.
    trace: "off",
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
  },
  webServer: {
    // The script a developer runs (local migrations, then the server), with the documented port option, and two
    // names allowed besides loopback for the host checks (dev-server-hosts.spec.ts).
    command: `LOCAL_ALLOWED_HOSTS="app.example, .preview.example" npm run dev -- --host 127.0.0.1 --port ${PORT} --strictPort`,
    cwd: resolve(import.meta.dirname, "../.."),
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 120_000,

    // The server logs the compile error the overlay test provokes, stack and all. Its output is kept out
    // of the test report; `DEBUG=pw:webserver npm run test:dev` shows it.
    stdout: "ignore",
    stderr: "ignore",
    // No internet needed: `npm run dev` does not download Cloudflare's `Request.cf` sample
    // (packages/edge-platform/src/vite/local-servers.ts).
  },
});
