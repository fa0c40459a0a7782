import { readFile } from "node:fs/promises";
import { stripTypeScriptTypes } from "node:module";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DocumentFacts } from "../../src/document-scan";

// HTMLRewriter is workerd's: the module runs there as it is (it imports nothing), called by a Worker that
// hands it each test's document.
let miniflare: Miniflare;

beforeAll(async () => {
  const scanner = stripTypeScriptTypes(
    await readFile(new URL("../../src/document-scan.ts", import.meta.url), "utf8"),
  );
  // Described in Miniflare 4's shape, which Miniflare 5 converts itself (as local-server/serve-build.ts does).
  const options = convertV4MiniflareOptions({
    workers: [
      {
        name: "scan",
        compatibilityDate: "2026-10-12",
        modulesRoot: "/",
        modules: [
          {
            type: "ESModule",
            path: "/worker.js",
            contents: `import { scanDocument } from "./document-scan.js";
export default { async fetch(request) { return Response.json(await scanDocument(await request.text())); } };`,
          },
          { type: "ESModule", path: "/document-scan.js", contents: scanner },
        ],
      },
    ],
  });
  miniflare = new Miniflare({ ...options, telemetry: { enabled: false } });
}, 60_000);

afterAll(() => miniflare?.dispose());

async function scan(html: string): Promise<DocumentFacts> {
  const response = await miniflare.dispatchFetch("http://scan.local/", { method: "POST", body: html });
  return (await response.json()) as DocumentFacts;
}

describe("scanDocument (workerd's HTMLRewriter)", () => {
  test("every inline script's text as written, in order; scripts with src and their text are not inline", async () => {
    const html = `<!DOCTYPE html><html><head><script>a()
</script><script src="/b.js">ignored()</script><script type="module">import "/c.js";</script></head><body><script></script></body></html>`;
    expect((await scan(html)).inlineScripts).toEqual(["a()\n", 'import "/c.js";', ""]);
  });

  test("a script's text is raw: markup-like text and entities are kept as the browser hashes them", async () => {
    const text = 'window.x = "<\\/p> &amp; <!-- not a comment -->";';
    expect((await scan(`<html><head><script>${text}</script></head></html>`)).inlineScripts).toEqual([text]);
  });

  test("a script inside a comment is no script", async () => {
    expect((await scan("<html><head><!-- <script>a()</script> --></head></html>")).inlineScripts).toEqual([]);
  });

  test("the head's inlined stylesheets by data-href, and its links by rel and href, whatever the quoting", async () => {
    const html = `<html><head><style data-href="/assets/app.css">a{}</style><style>b{}</style>
<link href='/assets/r.css' rel=stylesheet><link rel="modulepreload" href="/assets/m.js"/><link rel="icon">
</head><body><style data-href="/assets/late.css"></style><link rel="stylesheet" href="/assets/body.css"></body></html>`;
    const facts = await scan(html);
    expect(facts.inlineStylesheets).toEqual(["/assets/app.css"]);
    expect(facts.headLinks).toEqual([
      { rel: "stylesheet", href: "/assets/r.css" },
      { rel: "modulepreload", href: "/assets/m.js" },
    ]);
  });

  test("the start of a document (the renderer's head) is read as far as it goes", async () => {
    const facts = await scan(
      '<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/m.js"/><script>x()</script></head>',
    );
    expect(facts.headLinks).toEqual([{ rel: "modulepreload", href: "/assets/m.js" }]);
    expect(facts.inlineScripts).toEqual(["x()"]);
  });
});
