import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LOCALES, SCALE_PAGES, STATIC_PAGES } from "../../fixture/app/product.config.ts";
import { contentSecurityPolicy, scriptHash } from "../../src/headers";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY } from "../../src/testing/build-under-test.ts";
import { inlineScripts, inlineStyles } from "../../src/testing/inline-scripts.ts";
import { HEADERS_FILE_MAX_RULES } from "../../src/vite/static-page-headers.ts";

/**
 * packages/edge-platform/docs/decisions/010-static-page-csp-at-scale.md: more static pages than the `_headers`
 * file has rules for (100) build, and every one is served, in each of the fixture's languages, with a strict
 * policy that allows exactly its own inline scripts and stylesheets. The fixture pre-renders SCALE_PAGES
 * generated pages besides its own (fixture/app/routes/scale-page.tsx), so its one build covers it; the larger
 * runs are the root's `npm run bench:scale`.
 */

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

test("the build keeps a fixed number of _headers rules and one run_worker_first rule per static route", async () => {
  expect(SCALE_PAGES).toBeGreaterThan(HEADERS_FILE_MAX_RULES);
  const headersFile = await readFile(join(FIXTURE_BUILD_DIRECTORY, "client", "_headers"), "utf8");
  const rules = headersFile.split("\n").filter((line) => line.startsWith("/"));
  expect(rules).toEqual(["/assets/*", "/*", "/*.data"]);
  const deployConfig = JSON.parse(
    await readFile(join(FIXTURE_BUILD_DIRECTORY, "server", "wrangler.json"), "utf8"),
  );
  // One rule per static route (a route with a parameter is one rule, whatever its number of pages); the pages'
  // copies in the other languages have no address of their own (docs/i18n.md).
  expect(deployConfig.assets.run_worker_first).toEqual([
    "/",
    "/about",
    "/glossary",
    "/glossary/*",
    "/scale/*",
    "/__locales/*",
  ]);
});

test(`each of the fixture's ${STATIC_PAGES.length} static pages, in each of its languages, is served with a policy allowing exactly its inline scripts and styles`, async () => {
  const failures: string[] = [];
  const policies = new Set<string>();
  for (const language of LOCALES) {
    for (const path of STATIC_PAGES) {
      const response = await fetch(new URL(path, app.url), { headers: { "Accept-Language": language } });
      const html = await response.text();
      const hashes = [...new Set(await Promise.all(inlineScripts(html).map(scriptHash)))];
      const styleSha256 = [...new Set(await Promise.all(inlineStyles(html).map(scriptHash)))];
      const policy = response.headers.get("content-security-policy") ?? "";
      if (language === LOCALES[0]) policies.add(policy);
      if (
        response.status !== 200 ||
        response.headers.get("content-language") !== language ||
        hashes.length < 3 ||
        policy !== contentSecurityPolicy({ sha256: hashes }, { styleSha256 })
      )
        failures.push(`${path} (${language}): ${response.status} ${policy}`);
    }
  }
  expect(failures).toEqual([]);
  // Each page's data script differs, so each page has a policy of its own.
  expect(policies.size).toBe(STATIC_PAGES.length);
});
