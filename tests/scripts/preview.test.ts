import { expect, test } from "vitest";
import { freePort } from "../support/free-port";
import { startCommand } from "./run-script";

// `npm run preview` serves the existing production build (`npm run build` first, as for the worker tests)
// the way `npm start` does, without building again; `-- --port N` picks the port.

test("npm run preview -- --port N serves the built app on that port, without building", async () => {
  const port = await freePort();
  const preview = startCommand(`npm run preview -- --port ${port}`, { stdin: "closed", timeoutMs: 90_000 });
  try {
    await expect
      .poll(() => preview.output(), { timeout: 80_000, interval: 250 })
      .toContain(`Serving the production build at http://127.0.0.1:${port}`);
    const response = await fetch(`http://127.0.0.1:${port}/about`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<h1>About</h1>");
    expect(preview.output()).not.toContain("> edge-app@ build");
  } finally {
    await preview.stop();
  }
});
