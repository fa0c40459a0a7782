import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "edge-platform/testing";
import { expect, test } from "vitest";
import { A_STATIC_PAGE } from "../support/product-pages.ts";
import { ROOT, runCommand, startCommand, warningsNobodyCanActOn } from "./run-script";

// A newcomer's first commands print nothing they cannot act on: no warning from React Router,
// Vite, Rolldown or Miniflare about the project's own set-up (WARNINGS_NOBODY_CAN_ACT_ON, each removed where
// it came from). `npm start` is `npm run build`, then `npm run preview` (preview.test.ts checks its output).

/** Where @cloudflare/vite-plugin points `wrangler deploy` after a build: put back after a build elsewhere. */
const DEPLOY_POINTER = join(ROOT, ".wrangler/deploy/config.json");

test("npm run build prints no warning nobody can act on", async () => {
  // The whole build, pre-rendering included, as a developer runs it, into a directory of its own: build/
  // may be in use by the other suites.
  const buildDirectory = await mkdtemp(join(tmpdir(), "edge-app-build-"));
  const pointer = await readFile(DEPLOY_POINTER, "utf8").catch(() => undefined);
  try {
    const run = await runCommand("npm run build", {
      stdin: "closed",
      timeoutMs: 170_000,
      env: { BUILD_DIRECTORY: buildDirectory },
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`Prerender (html): ${A_STATIC_PAGE} `);
    expect(warningsNobodyCanActOn(run.output)).toEqual([]);
  } finally {
    if (pointer === undefined) await rm(DEPLOY_POINTER, { force: true });
    else await writeFile(DEPLOY_POINTER, pointer);
    await rm(buildDirectory, { recursive: true, force: true });
  }
});

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
