import { freePort } from "edge-platform/testing";
import { expect, test } from "vitest";
import { A_STATIC_PAGE } from "../support/product-pages.ts";
import { startCommand, warningsNobodyCanActOn } from "./run-script";

// A newcomer's first commands print nothing they cannot act on: no warning from React Router,
// Vite, Rolldown or Miniflare about the project's own set-up (WARNINGS_NOBODY_CAN_ACT_ON, each removed where
// it came from). `npm start` is `npm run build`, then `npm run preview` (preview.test.ts checks its output).
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
