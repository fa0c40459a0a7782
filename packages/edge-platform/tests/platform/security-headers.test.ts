import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BASE_SECURITY_HEADERS,
  contentSecurityPolicy,
  NON_DOCUMENT_CSP,
  PERMISSIONS_POLICY,
  scriptHash,
} from "../../src/headers";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";
import { inlineScripts, inlineStyles } from "../../src/testing/inline-scripts.ts";

let app: ServedBuild;

beforeAll(async () => {
  // /failures/loader is among the pages checked: its server_error line is provoked, not printed.
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS, onLog: () => {} });
});

afterAll(async () => {
  await app?.close();
});

/**
 * The hashes of the page's inline stylesheets, each allowed by its hash (decision 022): the platform's own and the
 * fixture's root stylesheet, inlined in every page.
 */
async function styleHashes(html: string): Promise<string[]> {
  const styles = inlineStyles(html);
  expect(styles).toHaveLength(2);
  return Promise.all(styles.map(scriptHash));
}

function get(path: string, init?: RequestInit) {
  return fetch(new URL(path, app.url), { redirect: "manual", ...init });
}

function expectBaseHeaders(response: Response) {
  for (const [name, value] of Object.entries(BASE_SECURITY_HEADERS))
    expect(response.headers.get(name)).toBe(value);
}

function expectPageHeaders(response: Response) {
  expectBaseHeaders(response);
  expect(response.headers.get("permissions-policy")).toBe(PERMISSIONS_POLICY);
  expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
}

/** The nonce of every script and preload of a page (they must all be the one in the policy). */
function nonceAttributes(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*\snonce="([^"]*)"/g)].map(([, nonce = ""]) => nonce);
}

describe("pages rendered per request carry a fresh nonce in their policy", () => {
  test.each(["/now", "/items/ams", "/messages", "/no-such-page", "/failures/loader"])(
    "%s: the policy's nonce is the one on every script, and the page headers are all there",
    async (path) => {
      const response = await get(path);
      const html = await response.text();
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expectPageHeaders(response);
      const nonce = response.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1] ?? "";
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(response.headers.get("content-security-policy")).toBe(
        contentSecurityPolicy({ nonce }, { styleSha256: await styleHashes(html) }),
      );
      const attributes = nonceAttributes(html);
      expect(attributes.length).toBeGreaterThan(3);
      expect(new Set(attributes)).toEqual(new Set([nonce]));
    },
  );

  test("two requests get two different nonces", async () => {
    const policies = await Promise.all([get("/now"), get("/now")].map(async (r) => (await r).headers));
    const [first, second] = policies.map((headers) => headers.get("content-security-policy"));
    expect(first).not.toBe(second);
  });
});

describe("pre-rendered pages are served with a policy that allows their inline scripts by hash", () => {
  test.each(["/", "/about", "/glossary", "/glossary/edge"])("%s", async (path) => {
    const response = await get(path);
    const html = await response.text();
    expectPageHeaders(response);
    const hashes = [...new Set(await Promise.all(inlineScripts(html).map(scriptHash)))];
    expect(hashes.length).toBeGreaterThan(2);
    expect(response.headers.get("content-security-policy")).toBe(
      contentSecurityPolicy({ sha256: hashes }, { styleSha256: await styleHashes(html) }),
    );
  });

  // Decision 010: the Worker serves them from the assets, which keeps their validators and revalidation.
  test("a revalidation (304) and a HEAD carry the same policy as the page", async () => {
    const page = await get("/glossary/edge");
    const policy = page.headers.get("content-security-policy");
    const etag = page.headers.get("etag") ?? "";
    await page.text();
    expect(policy).toContain("'sha256-");
    expect(page.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    const revalidated = await get("/glossary/edge", { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("content-security-policy")).toBe(policy);
    const head = await get("/glossary/edge", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-security-policy")).toBe(policy);
  });

  test("a page of a static route that was not pre-rendered is rendered by the app (404 page, nonce)", async () => {
    const response = await get("/glossary/no-such-term");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-security-policy")).toMatch(/'nonce-/);
  });
});

describe("everything else gets the base headers and a policy under which nothing runs", () => {
  // Static files are not answered by the Worker: they get the same set from the build's `_headers` file.
  test.each([
    ["page data", "/now.data", 200, NON_DOCUMENT_CSP],
    ["a redirect", "/items/AMS", 301, NON_DOCUMENT_CSP],
    ["the tunnel without a DSN", "/monitoring", 404, NON_DOCUMENT_CSP],
    ["a data request for no route", "/no-such-page.data", 404, NON_DOCUMENT_CSP],
    ["static page data (a file)", "/about.data", 200, NON_DOCUMENT_CSP],
    ["the home page's static page data (a file)", "/_root.data", 200, NON_DOCUMENT_CSP],
    ["static page data under a glob rule (through the Worker)", "/glossary/edge.data", 200, NON_DOCUMENT_CSP],
    ["a public file", "/robots.txt", 200, NON_DOCUMENT_CSP],
  ])("%s (%s)", async (_, path, status, policy) => {
    const response = await get(path);
    expect(response.status).toBe(status);
    expectBaseHeaders(response);
    expect(response.headers.get("content-security-policy")).toBe(policy);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  test("a cross-site post refused by the Worker", async () => {
    const response = await get("/messages", {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "text=hi",
    });
    expect(response.status).toBe(403);
    expectBaseHeaders(response);
    expect(response.headers.get("content-security-policy")).toBe(NON_DOCUMENT_CSP);
  });

  // The probe of packages/edge-platform/docs/decisions/019-probe-findings.md: static files carried no policy, although an SVG
  // can carry script and any file may be opened as a document.
  test("hashed built files (a script, a stylesheet, the icon, an SVG) keep their year-long cache and get the base set and the locked policy", async () => {
    const html = await (await get("/about")).text();
    const script = html.match(/\/assets\/[\w-]+\.js/)?.[0];
    const stylesheet = html.match(/\/assets\/[\w-]+\.css/)?.[0];
    // The icon is a built, fingerprinted file (packages/edge-platform/docs/decisions/018-paint-first.md).
    const icon = html.match(/\/assets\/favicon-[\w-]+\.svg/)?.[0];
    if (!script || !stylesheet || !icon) throw new Error("/about links no built script, stylesheet or icon");
    expect((await get(icon)).headers.get("content-type")?.startsWith("image/svg+xml")).toBe(true);
    for (const path of [script, stylesheet, icon]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expectBaseHeaders(response);
      // A policy on a script or stylesheet does not apply to the page that loads it (it would to a Web Worker).
      expect(response.headers.get("content-security-policy")).toBe(NON_DOCUMENT_CSP);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  test("a revalidated static file (304) keeps the locked policy", async () => {
    const first = await get("/robots.txt");
    const revalidated = await get("/robots.txt", {
      headers: { "If-None-Match": first.headers.get("etag") ?? "" },
    });
    expect(revalidated.status).toBe(304);
    expectBaseHeaders(revalidated);
    expect(revalidated.headers.get("content-security-policy")).toBe(NON_DOCUMENT_CSP);
    expect(revalidated.headers.get("x-frame-options")).toBe("DENY");
  });

  test.each(["/about/", "/about/index.html", "/index.html"])(
    "the assets' redirect of %s to a page's one address carries it too",
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(307);
      expectBaseHeaders(response);
      expect(response.headers.get("content-security-policy")).toBe(NON_DOCUMENT_CSP);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    },
  );
});
