import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import {
  contentSecurityPolicy,
  HEADERS_FILE_MAX_RULES,
  inlineScripts,
  scriptHash,
} from "edge-platform/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildCopy, createScaledCopy, type ScaledCopy } from "../support/scaled-copy.ts";

/**
 * Decision 010: more static pages than the `_headers` file had rules for (100) build, and every one is
 * served with a strict policy that allows exactly its own inline scripts. One build of a temporary copy
 * of the product with 110 generated pages besides its own (past the 100 rules) (the larger runs are `npm run bench:scale`), in
 * two of its languages: each language is one more copy of every page, and one other than the default shows
 * the copies hold the same rules (the product's four are built and served by the e2e suite).
 */
const ADDED_PAGES = 110;
const LOCALES = ["en", "ja"];

let copy: ScaledCopy;
let app: ServedBuild;

beforeAll(async () => {
  copy = await createScaledCopy(ADDED_PAGES, { locales: LOCALES });
  await buildCopy(copy.directory);
  app = await serveBuild({ buildDirectory: join(copy.directory, "build"), onLog: () => {} });
}, 240_000);

afterAll(async () => {
  await app?.close();
  await copy?.remove();
});

test("the build keeps a fixed number of _headers rules and one run_worker_first rule per static route", async () => {
  const build = join(copy.directory, "build");
  const headersFile = await readFile(join(build, "client", "_headers"), "utf8");
  const rules = headersFile.split("\n").filter((line) => line.startsWith("/"));
  expect(rules).toEqual(["/assets/*", "/*", "/*.data"]);
  expect(rules.length).toBeLessThan(HEADERS_FILE_MAX_RULES);
  const deployConfig = JSON.parse(await readFile(join(build, "server", "wrangler.json"), "utf8"));
  expect(deployConfig.assets.run_worker_first).toEqual([
    "/",
    "/about",
    "/glossary",
    "/glossary/*",
    "/scale/*",
    // The pages' copies in the product's other languages have no address of their own (docs/i18n.md).
    "/__locales/*",
  ]);
});

test(`each of the ${ADDED_PAGES} + product static pages, in English and Japanese, is served with a policy allowing exactly its inline scripts and inlined stylesheet`, async () => {
  expect(copy.staticPages.length).toBeGreaterThan(ADDED_PAGES);
  const failures: string[] = [];
  const policies = new Set<string>();
  // Every page in the default language, and its Japanese copy (the build writes one per declared locale).
  const requests = copy.staticPages.flatMap((path) => [[path, "en"] as const, [path, "ja"] as const]);
  for (const [path, language] of requests) {
    const response = await fetch(new URL(path, app.url), { headers: { "Accept-Language": language } });
    const html = await response.text();
    const hashes = [...new Set(await Promise.all(inlineScripts(html).map(scriptHash)))];
    // The root's stylesheet, inlined (decision 022): the same text, so the same hash, on every page.
    const styles = [...html.matchAll(/<style\b[^>]*>([^<]*)<\/style>/g)].map(([, text = ""]) => text);
    const styleSha256 = await Promise.all(styles.map(scriptHash));
    const policy = response.headers.get("content-security-policy") ?? "";
    if (language === "en") policies.add(policy);
    if (
      response.status !== 200 ||
      response.headers.get("content-language") !== language ||
      hashes.length < 3 ||
      styleSha256.length !== 1 ||
      policy !== contentSecurityPolicy({ sha256: hashes }, { styleSha256 })
    )
      failures.push(`${path} (${language}): ${response.status} ${policy}`);
  }
  expect(failures).toEqual([]);
  // Each page's data script differs, so each page has a policy of its own.
  expect(policies.size).toBe(copy.staticPages.length);
});
