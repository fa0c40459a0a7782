import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { freePort } from "edge-platform/testing";
import { expect, test } from "vitest";
import { A_STATIC_PAGE, prerenderedFile } from "../support/product-pages.ts";
import { ROOT, startCommand, warningsNobodyCanActOn } from "./run-script";

// The local servers a developer starts in this checkout, `npm run preview` (what `npm start` runs after building)
// and `npm run dev`, in one file so that they run one after the other: each first migrates the checkout's local
// database (`npm run db:migrate:local`) and then serves it, and two workerd processes opening that SQLite file at
// once fail with SQLITE_BUSY (seen under load: `npm run dev` never started).

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

// A newcomer's first commands print nothing they cannot act on: no warning from React Router,
// Vite, Rolldown or Miniflare about the project's own set-up (WARNINGS_NOBODY_CAN_ACT_ON, each removed where
// it came from). `npm start` is `npm run build`, then `npm run preview` (checked above).
// The build's output is checked where `npm test` builds (`quietBuild` in scripts/test-all.ts): a whole second
// build here cost 44 s of the suite.

test("npm run dev prints no warning nobody can act on, offline included", async () => {
  const port = await freePort();
  const dev = startCommand(`npm run dev -- --host 127.0.0.1 --port ${port} --strictPort`, {
    stdin: "closed",
    timeoutMs: 170_000,
    // As a developer's shell has it: nothing set to keep Miniflare from downloading `request.cf`. These
    // machines have no internet, so the download would fail and say so.
    env: { CLOUDFLARE_CF_FETCH_ENABLED: undefined },
  });
  try {
    await expect
      .poll(() => dev.output(), { timeout: 150_000, interval: 250 })
      .toContain(`http://127.0.0.1:${port}/`);
    // A page rendered by the Worker (in dev, every page is): workerd, Miniflare and the dev server have all
    // started and spoken.
    const response = await fetch(`http://127.0.0.1:${port}${A_STATIC_PAGE}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^<!DOCTYPE html><html lang="[\w-]+"/);
  } finally {
    const { output } = await dev.stop();
    expect(warningsNobodyCanActOn(output)).toEqual([]);
  }
});
