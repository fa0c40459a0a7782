import { describe, expect, test } from "vitest";
import { PRELOAD_LINK_HEADER_MAX_BYTES } from "../../src/constants";
import type { DocumentFacts } from "../../src/document-scan";
import {
  BASE_SECURITY_HEADERS,
  contentSecurityPolicy,
  documentSecurityHeaders,
  earlyHintsLinkHeader,
  hashedDocumentHeaders,
  NON_DOCUMENT_CSP,
  PER_REQUEST_CACHE_CONTROL,
  PERMISSIONS_POLICY,
  scriptHash,
  sharedPageHeaders,
  withoutEdgeCaching,
  withPlatformHeaders,
} from "../../src/headers";
import { inlineScripts } from "../../src/testing/inline-scripts";
import { HEADERS_FILE_MAX_RULES, headersFileForAssets } from "../../src/vite/static-page-headers";

describe("contentSecurityPolicy ", () => {
  test("a page rendered per request allows its scripts by nonce, and what they load by 'strict-dynamic'", () => {
    expect(contentSecurityPolicy({ nonce: "abc123==" })).toBe(
      "default-src 'self'; script-src 'nonce-abc123==' 'strict-dynamic'; style-src 'self'; img-src 'self' data:; " +
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
        "frame-ancestors 'none'",
    );
  });

  test("a pre-rendered page allows its inline scripts by hash, and no nonce", () => {
    const policy = contentSecurityPolicy({ sha256: ["AAA=", "BBB="] });
    expect(policy).toContain("script-src 'sha256-AAA=' 'sha256-BBB=' 'strict-dynamic';");
    expect(policy).not.toContain("nonce");
  });

  test("no policy lets scripts run inline without a nonce or hash, or evaluate strings", () => {
    for (const policy of [contentSecurityPolicy({ nonce: "n" }), contentSecurityPolicy({ sha256: [] })]) {
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*|https:/);
    }
  });

  test("reports and data go to this origin only (the tunnel makes Sentry's hosts unnecessary)", () => {
    expect(contentSecurityPolicy({ nonce: "n" })).toContain("connect-src 'self';");
  });

  test("in development, style elements carrying the page's nonce are allowed too (Vite's injected CSS)", () => {
    const production = contentSecurityPolicy({ nonce: "n" });
    const development = contentSecurityPolicy({ nonce: "n" }, { development: true });
    expect(development).toBe(production.replace("style-src 'self';", "style-src 'self' 'nonce-n';"));
    // Style attributes stay refused in development: a nonce never allows them, and nothing is unsafe.
    expect(development).not.toMatch(/unsafe-inline|unsafe-hashes/);
  });

  test("inlined stylesheets are allowed by their hashes, on either kind of page, and style attributes stay refused", () => {
    for (const scripts of [{ nonce: "n" }, { sha256: ["AAA="] }]) {
      const policy = contentSecurityPolicy(scripts, { styleSha256: ["S1=", "S2="] });
      expect(policy).toBe(
        contentSecurityPolicy(scripts).replace(
          "style-src 'self';",
          "style-src 'self' 'sha256-S1=' 'sha256-S2=';",
        ),
      );
      expect(policy).not.toMatch(/unsafe-inline|unsafe-hashes/);
    }
  });

  test("the production policy is the default, and a pre-rendered page never gets a development nonce", () => {
    expect(contentSecurityPolicy({ nonce: "n" }, { development: false })).toBe(
      contentSecurityPolicy({ nonce: "n" }),
    );
    expect(contentSecurityPolicy({ sha256: ["AAA="] }, { development: true })).toBe(
      contentSecurityPolicy({ sha256: ["AAA="] }),
    );
  });
});

describe("documentSecurityHeaders", () => {
  test("a page carries the policy, the base headers, a permissions policy and no framing", () => {
    expect(documentSecurityHeaders({ nonce: "n" })).toEqual({
      "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Content-Security-Policy": contentSecurityPolicy({ nonce: "n" }),
      "Permissions-Policy": PERMISSIONS_POLICY,
      "Cross-Origin-Opener-Policy": "same-origin",
      "X-Frame-Options": "DENY",
    });
  });

  test("the permissions policy switches features off, with no allow-list", () => {
    expect(PERMISSIONS_POLICY).toMatch(/^([a-z-]+=\(\), )+[a-z-]+=\(\)$/);
    expect(PERMISSIONS_POLICY).toContain("camera=()");
    expect(PERMISSIONS_POLICY).toContain("geolocation=()");
  });
});

/** The headers of an answer as the Worker's first step sends it on (withPlatformHeaders). */
function leaving(status: number, headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(withPlatformHeaders(new Response(null, { status, headers })).headers);
}

describe("withPlatformHeaders (what every answer leaves the Worker with)", () => {
  test("a response without any gets the base set, a policy under which nothing runs, per-request caching", () => {
    expect(leaving(200, { "Content-Type": "text/plain" })).toEqual(
      lowerCased({
        "Content-Type": "text/plain",
        ...BASE_SECURITY_HEADERS,
        "Content-Security-Policy": NON_DOCUMENT_CSP,
        "X-Frame-Options": "DENY",
        "Cache-Control": PER_REQUEST_CACHE_CONTROL,
      }),
    );
    expect(NON_DOCUMENT_CSP).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
    expect(PER_REQUEST_CACHE_CONTROL).toBe("private, no-store");
  });

  test("a page from the renderer already has its policy: nothing is replaced", () => {
    const page = { ...documentSecurityHeaders({ nonce: "n" }), "Cache-Control": "private, no-store" };
    expect(leaving(200, page)).toEqual(lowerCased(page));
  });

  test("a header that is already set is kept", () => {
    const headers = leaving(200, { "Referrer-Policy": "no-referrer" });
    expect(headers["referrer-policy"]).toBe("no-referrer");
    expect(headers["x-content-type-options"]).toBe("nosniff");
  });

  test("a route that sets its own Cache-Control keeps it", () => {
    expect(leaving(200, { "Cache-Control": "public, max-age=60" })["cache-control"]).toBe(
      "public, max-age=60",
    );
  });

  test("React Router's own 405 (a method it does not handle) gets the methods every page answers", () => {
    expect(leaving(405, {}).allow).toBe("GET, HEAD");
  });

  test("a route's own Allow is kept, and other statuses get none", () => {
    expect(leaving(405, { Allow: "POST" }).allow).toBe("POST");
    expect(leaving(404, {}).allow).toBeUndefined();
  });

  test("an immutable response (from fetch or Response.redirect) is copied, not thrown on", () => {
    const redirect = withPlatformHeaders(Response.redirect("https://app.example/about", 308));
    expect(redirect.headers.get("Cache-Control")).toBe(PER_REQUEST_CACHE_CONTROL);
    expect(redirect.status).toBe(308);
  });
});

describe("withoutEdgeCaching (what the gateway, the Worker's default entrypoint, answers)", () => {
  test("a shared copy handed on loses the edge's headers and keeps the browser's per-request caching", async () => {
    const copy = new Response("<!DOCTYPE html>", {
      headers: {
        "Content-Type": "text/html",
        "CDN-Cache-Control": "max-age=60",
        ...sharedPageHeaders(
          { sMaxAge: 60, staleWhileRevalidate: 600, staleIfError: 600, tags: ["messages"] },
          "/messages/latest",
        ),
      },
    });
    const leaving = withoutEdgeCaching(copy);
    expect(Object.fromEntries(leaving.headers)).toEqual({
      "content-type": "text/html",
      "cache-control": PER_REQUEST_CACHE_CONTROL,
    });
    expect(await leaving.text()).toBe("<!DOCTYPE html>");
  });

  test("its status and body are kept; an answer without them is left as it is", async () => {
    const notFound = withoutEdgeCaching(new Response("gone", { status: 404, headers: { "Cache-Tag": "a" } }));
    expect(notFound.status).toBe(404);
    expect(notFound.headers.has("Cache-Tag")).toBe(false);
    expect(await notFound.text()).toBe("gone");
    const asset = new Response("x", { headers: { "Cache-Control": "public, max-age=0, must-revalidate" } });
    expect(withoutEdgeCaching(asset)).toBe(asset);
  });
});

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

describe("inlineScripts (the tests' own reading) and scriptHash (pre-rendered pages)", () => {
  test("only inline scripts are listed, with their exact text", () => {
    const html =
      '<script nonce="x">a()\n</script><script src="/b.js"></script>' +
      '<SCRIPT type="module" async="">import "/c.js";</SCRIPT><script></script>';
    expect(inlineScripts(html)).toEqual(["a()\n", 'import "/c.js";', ""]);
  });

  test("the hash is base64 SHA-256 of the text, as browsers compute it", async () => {
    expect(await scriptHash("")).toBe("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
    expect(await scriptHash("alert(1)")).toBe("bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=");
  });
});

/** What document-scan.ts reads from a page (its own test reads real markup in workerd). */
const facts = (parts: Partial<DocumentFacts>): DocumentFacts => ({
  inlineScripts: [],
  inlineStylesheets: [],
  headLinks: [],
  ...parts,
});

describe("hashedDocumentHeaders (pre-rendered pages, served by the Worker)", () => {
  test("allows each inline script of the page by its hash, once, and nothing else", async () => {
    const page = facts({ inlineScripts: ["a()", "a()", "c()"] });
    const [a, c] = [await scriptHash("a()"), await scriptHash("c()")];
    expect(await hashedDocumentHeaders(page)).toEqual(documentSecurityHeaders({ sha256: [a, c] }));
    expect((await hashedDocumentHeaders(page))["Content-Security-Policy"]).toContain(
      `script-src 'sha256-${a}' 'sha256-${c}' 'strict-dynamic';`,
    );
  });

  test("allows the page's inlined stylesheets by the build's hashes (decision 022)", async () => {
    const page = facts({ inlineStylesheets: ["/assets/app.css"] });
    const stylesheets = { "/assets/app.css": { text: "p{}", sha256: "BUILT=" } };
    expect(await hashedDocumentHeaders(page, {}, stylesheets)).toEqual(
      documentSecurityHeaders({ sha256: [] }, { styleSha256: ["BUILT="] }),
    );
    // Without the build's stylesheets nothing inline is allowed.
    expect((await hashedDocumentHeaders(page))["Content-Security-Policy"]).toContain("style-src 'self';");
  });

  test("names the page's built stylesheets and modules in its Link header", async () => {
    const page = facts({ headLinks: [{ rel: "modulepreload", href: "/assets/a-AAAAAAAA.js" }] });
    expect((await hashedDocumentHeaders(page)).Link).toBe("</assets/a-AAAAAAAA.js>; rel=modulepreload");
  });
});

describe("earlyHintsLinkHeader (the Link header for Early Hints)", () => {
  const links = (...pairs: [string, string][]) => pairs.map(([rel, href]) => ({ rel, href }));

  test("stylesheets as preloads first, then the modules, in the page's order", () => {
    const head = links(
      ["modulepreload", "/assets/a-AAAAAAAA.js"],
      ["stylesheet", "/assets/app-BBBBBBBB.css"],
      ["modulepreload", "/assets/b-CCCCCCCC.js"],
      ["Stylesheet", "/assets/route-DDDDDDDD.css"],
    );
    expect(earlyHintsLinkHeader(head)).toBe(
      "</assets/app-BBBBBBBB.css>; rel=preload; as=style, </assets/route-DDDDDDDD.css>; rel=preload; as=style, " +
        "</assets/a-AAAAAAAA.js>; rel=modulepreload, </assets/b-CCCCCCCC.js>; rel=modulepreload",
    );
  });

  test("only built files: other origins, other paths, icons and queries are left out", () => {
    const head = links(
      ["stylesheet", "https://cdn.example/x.css"],
      ["stylesheet", "//cdn.example/assets/x.css"],
      ["modulepreload", "/public/y.js"],
      ["icon", "/assets/favicon-EEEEEEEE.svg"],
      ["modulepreload", "/assets/z-FFFFFFFF.js?x=1"],
      ["modulepreload", "/assets/ok-GGGGGGGG.js"],
    );
    expect(earlyHintsLinkHeader(head)).toBe("</assets/ok-GGGGGGGG.js>; rel=modulepreload");
  });

  test("a page with nothing to preload gets no header; each file is named once", () => {
    expect(earlyHintsLinkHeader([])).toBeUndefined();
    const twice = links(
      ["modulepreload", "/assets/a-AAAAAAAA.js"],
      ["modulepreload", "/assets/a-AAAAAAAA.js"],
    );
    expect(earlyHintsLinkHeader(twice)).toBe("</assets/a-AAAAAAAA.js>; rel=modulepreload");
  });

  test("the header stays within its limit, keeping the stylesheets", () => {
    const modules = Array.from({ length: 200 }, (_, i): [string, string] => [
      "modulepreload",
      `/assets/module-${i}-AAAAAAAA.js`,
    ]);
    const header = earlyHintsLinkHeader(links(...modules, ["stylesheet", "/assets/app-BBBBBBBB.css"])) ?? "";
    expect(new TextEncoder().encode(header).byteLength).toBeLessThanOrEqual(PRELOAD_LINK_HEADER_MAX_BYTES);
    expect(header.startsWith("</assets/app-BBBBBBBB.css>; rel=preload; as=style, </assets/module-0-")).toBe(
      true,
    );
    expect(header.split(", ").length).toBeGreaterThan(20);
  });
});

describe("headersFileForAssets (decision 010: a fixed set of rules, whatever the number of pages)", () => {
  const handWritten = "/robots.txt\n  X-Robots-Tag: noindex\n";

  test("with no public/_headers: the hashed assets cached for a year, every asset's base set, page data's type", () => {
    const file = headersFileForAssets();
    expect(file.split("\n").filter((line) => /^\//.test(line))).toEqual(["/assets/*", "/*", "/*.data"]);
    expect(file).toContain("\n/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n");
  });

  test("keeps the product's own rules first and gives all assets the base set and the policy under which nothing runs", () => {
    const file = headersFileForAssets(handWritten);
    expect(file.startsWith(handWritten)).toBe(true);
    expect(file).toContain("\n/*\n  Strict-Transport-Security: max-age=63072000; includeSubDomains\n");
    expect(file).toContain(`\n  Content-Security-Policy: ${NON_DOCUMENT_CSP}\n  X-Frame-Options: DENY\n`);
    // One policy rule: values of matching rules are joined, and the Worker replaces it on pre-rendered pages.
    expect(file.match(/Content-Security-Policy/g)).toHaveLength(1);
    expect(file.split("\n").filter((line) => /^\//.test(line))).toEqual([
      "/robots.txt",
      "/assets/*",
      "/*",
      "/*.data",
    ]);
  });

  test("a product rule for the hashed assets fails the build (Cloudflare would join the two Cache-Control values)", () => {
    expect(() => headersFileForAssets("/assets/*\n  Cache-Control: no-store\n")).toThrow(
      /writes the \/assets\/\* rule/,
    );
  });

  test("more hand-written rules than Cloudflare reads fail the build instead of being ignored", () => {
    const rules = Array.from({ length: HEADERS_FILE_MAX_RULES - 2 }, (_, index) => `/p${index}\n  X-A: b`);
    expect(() => headersFileForAssets(rules.join("\n"))).toThrow(/limit of 100/);
    expect(() => headersFileForAssets(rules.slice(0, HEADERS_FILE_MAX_RULES - 3).join("\n"))).not.toThrow();
  });

  test("a line longer than Cloudflare reads fails the build", () => {
    expect(() => headersFileForAssets(`/a\n  X-Long: ${"x".repeat(2_000)}`)).toThrow(/2000 characters/);
  });
});
