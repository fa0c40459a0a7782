import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { freePort } from "edge-platform/testing";
import { expect, test } from "vitest";
import { A_STATIC_PAGE, prerenderedFile } from "../support/product-pages.ts";
import { ROOT, startCommand, warningsNobodyCanActOn } from "./run-script";

// `npm run preview` serves the existing production build (`npm run build` first, as for the worker tests)
// the way `npm start` does, without building again; `-- --port N` picks the port.

test("npm run preview -- --port N serves the built app on that port, without building", async () => {
  const port = await freePort();
  const preview = startCommand(`npm run preview -- --port ${port}`, { stdin: "closed", timeoutMs: 90_000 });
  try {
    await expect
      .poll(() => preview.output(), { timeout: 80_000, interval: 250 })
      .toContain(`Serving the production build at http://127.0.0.1:${port}`);
    // The product's first static page, as the build wrote it.
    const response = await fetch(`http://127.0.0.1:${port}${A_STATIC_PAGE}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      await readFile(resolve(ROOT, "build/client", prerenderedFile(A_STATIC_PAGE)), "utf8"),
    );
    expect(preview.output()).not.toContain("> edge-app@ build");
    // `npm start`'s second half: nothing a newcomer cannot act on (npm test checks the build's, scripts/test-all.ts).
    expect(warningsNobodyCanActOn(preview.output())).toEqual([]);
  } finally {
    await preview.stop();
  }
});

// The local server is the platform's (packages/edge-platform/src/local-server/), not the tests': what `npm start` runs,
// script by script, names nothing under tests/.
test("npm start and npm run preview run nothing from tests/", async () => {
  const { scripts } = JSON.parse(await readFile(resolve(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const reached = new Set<string>();
  const pending = ["start"];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (reached.has(name)) continue;
    reached.add(name);
    for (const [, called] of scripts[name]?.matchAll(/npm run ([\w:-]+)/g) ?? [])
      if (called) pending.push(called);
  }
  expect([...reached].sort()).toEqual(["build", "db:migrate:local", "preview", "start"]);
  for (const name of reached) expect(scripts[name], name).not.toMatch(/\btests\//);
});
