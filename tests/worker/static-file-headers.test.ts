import { type ServedBuild, serveBuild } from "edge-platform/local-server";
import { NON_DOCUMENT_CSP, TEST_VARS } from "edge-platform/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

// The probe of packages/edge-platform/docs/decisions/019-probe-findings.md: static files carried no policy, although an SVG can
// carry script and any file may be opened as a document. Each kind of file the build serves, as served in
// workerd with the built `_headers`.

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ vars: TEST_VARS });
});

afterAll(async () => {
  await app?.close();
});

function get(path: string, init?: RequestInit) {
  return fetch(new URL(path, app.url), { redirect: "manual", ...init });
}

/** The built files a page loads: its module scripts and stylesheets under /assets/. */
async function builtFiles(pagePath: string): Promise<{ script: string; stylesheet: string; icon: string }> {
  const html = await (await get(pagePath)).text();
  const script = html.match(/\/assets\/[\w-]+\.js/)?.[0];
  const stylesheet = html.match(/\/assets\/[\w-]+\.css/)?.[0];
  // The icon is a built, fingerprinted file (packages/edge-platform/docs/decisions/018-paint-first.md).
  const icon = html.match(/\/assets\/favicon-[\w-]+\.svg/)?.[0];
  if (!script || !stylesheet || !icon)
    throw new Error(`${pagePath} links no built script, stylesheet or icon`);
  return { script, stylesheet, icon };
}

function expectNothingRuns(response: Response) {
  expect(response.headers.get("content-security-policy")).toBe(NON_DOCUMENT_CSP);
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("static files carry a policy under which nothing runs, and cannot be framed", () => {
  test.each([
    ["robots.txt", "/robots.txt", "text/plain"],
    ["the page data of a pre-rendered page (a plain asset)", "/about.data", "text/x-script"],
    ["the page data of the pre-rendered home page", "/_root.data", "text/x-script"],
    ["pre-rendered page data under a glob rule (through the Worker)", "/glossary/edge.data", "text/x-script"],
  ])("%s (%s)", async (_, path, type) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")?.startsWith(type)).toBe(true);
    expectNothingRuns(response);
  });

  test("built scripts, stylesheets and the icon (an SVG) under /assets/ (a subresource's policy does not apply to its page)", async () => {
    const { script, stylesheet, icon } = await builtFiles("/about");
    expect((await get(icon)).headers.get("content-type")?.startsWith("image/svg+xml")).toBe(true);
    for (const path of [script, stylesheet, icon]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expectNothingRuns(response);
    }
  });

  test("a revalidated static file (304) keeps the policy", async () => {
    const first = await get("/robots.txt");
    const revalidated = await get("/robots.txt", {
      headers: { "If-None-Match": first.headers.get("etag") ?? "" },
    });
    expect(revalidated.status).toBe(304);
    expectNothingRuns(revalidated);
  });

  test("the assets' redirects to a page's one address carry it too", async () => {
    for (const path of ["/about/", "/about/index.html", "/index.html"]) {
      const response = await get(path);
      expect(response.status).toBe(307);
      expectNothingRuns(response);
    }
  });
});

describe("pre-rendered pages keep their own policy, which replaces the static files' one", () => {
  test.each(["/", "/about", "/glossary/edge"])(
    "%s: its inline scripts allowed by hash, once",
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy).toMatch(/^default-src 'self'; script-src 'sha256-/);
      expect(policy).not.toContain("default-src 'none'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    },
  );

  test("a HEAD and a 304 of a pre-rendered page carry the page's policy, not the static files' one", async () => {
    const page = await get("/about");
    const policy = page.headers.get("content-security-policy");
    expect(policy).toContain("'sha256-");
    const head = await get("/about", { method: "HEAD" });
    const revalidated = await get("/about", { headers: { "If-None-Match": page.headers.get("etag") ?? "" } });
    expect(revalidated.status).toBe(304);
    expect(head.headers.get("content-security-policy")).toBe(policy);
    expect(revalidated.headers.get("content-security-policy")).toBe(policy);
  });
});
