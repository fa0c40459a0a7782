import { describe, expect, test } from "vitest";
import { PRELOAD_LINK_HEADER_MAX_BYTES } from "../../src/constants";
import { preloadLinkHeader, routeStylesheets, splitHead } from "../../src/preload-links";

const page = (head: string, body = "<p>hi</p>") =>
  `<!DOCTYPE html><html><head><meta charSet="utf-8"/>${head}</head><body>${body}</body></html>`;

describe("preloadLinkHeader", () => {
  test("stylesheets as preloads first, then the modules, in the page's order", () => {
    const html = page(
      '<link rel="modulepreload" href="/assets/a-AAAAAAAA.js" nonce="n"/>' +
        '<link nonce="n" rel="stylesheet" href="/assets/app-BBBBBBBB.css" data-precedence="default"/>' +
        '<link rel="modulepreload" href="/assets/b-CCCCCCCC.js"/>' +
        '<link rel="stylesheet" href="/assets/route-DDDDDDDD.css"/>',
    );
    expect(preloadLinkHeader(html)).toBe(
      "</assets/app-BBBBBBBB.css>; rel=preload; as=style, </assets/route-DDDDDDDD.css>; rel=preload; as=style, " +
        "</assets/a-AAAAAAAA.js>; rel=modulepreload, </assets/b-CCCCCCCC.js>; rel=modulepreload",
    );
  });

  test("only built files: other origins, other paths, icons and links in the body are left out", () => {
    const html = page(
      '<link rel="stylesheet" href="https://cdn.example/x.css"/>' +
        '<link rel="stylesheet" href="//cdn.example/assets/x.css"/>' +
        '<link rel="modulepreload" href="/public/y.js"/>' +
        '<link rel="icon" href="/assets/favicon-EEEEEEEE.svg"/>' +
        '<link rel="modulepreload" href="/assets/z-FFFFFFFF.js?x=1"/>' +
        '<link rel="modulepreload" href="/assets/ok-GGGGGGGG.js"/>',
      '<link rel="stylesheet" href="/assets/late-HHHHHHHH.css"/>',
    );
    expect(preloadLinkHeader(html)).toBe("</assets/ok-GGGGGGGG.js>; rel=modulepreload");
  });

  test("a page with nothing to preload gets no header; each file is named once", () => {
    expect(preloadLinkHeader(page("<title>x</title>"))).toBeUndefined();
    const twice = '<link rel="modulepreload" href="/assets/a-AAAAAAAA.js"/>'.repeat(2);
    expect(preloadLinkHeader(page(twice))).toBe("</assets/a-AAAAAAAA.js>; rel=modulepreload");
  });

  test("the header stays within its limit, keeping the stylesheets", () => {
    const modules = Array.from(
      { length: 200 },
      (_, i) => `<link rel="modulepreload" href="/assets/module-${i}-AAAAAAAA.js"/>`,
    ).join("");
    const header =
      preloadLinkHeader(page(`${modules}<link rel="stylesheet" href="/assets/app-BBBBBBBB.css"/>`)) ?? "";
    expect(new TextEncoder().encode(header).byteLength).toBeLessThanOrEqual(PRELOAD_LINK_HEADER_MAX_BYTES);
    expect(header.startsWith("</assets/app-BBBBBBBB.css>; rel=preload; as=style, </assets/module-0-")).toBe(
      true,
    );
    expect(header.split(", ").length).toBeGreaterThan(20);
  });
});

describe("splitHead", () => {
  const streamOf = (chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });

  test("reads up to </head> across chunks and the returned stream still has every byte", async () => {
    const chunks = ["<html><he", "ad><link rel=x/></he", "ad><body>", "rest</body></html>"];
    const { head, body } = await splitHead(streamOf(chunks));
    expect(head).toBe("<html><head><link rel=x/></head><body>");
    expect(await new Response(body).text()).toBe(chunks.join(""));
  });

  test("a stream without </head> ends the wait at its end", async () => {
    const { head, body } = await splitHead(streamOf(["plain", " text"]));
    expect(head).toBe("plain text");
    expect(await new Response(body).text()).toBe("plain text");
  });
});

describe("routeStylesheets", () => {
  test("the imported stylesheets of the matched routes, root first, each once", () => {
    const route = (id: string, css?: string[]) => ({ id, css });
    const context = {
      manifest: {
        routes: {
          root: route("root"),
          "routes/docs": route("routes/docs", ["/assets/docs-AAAAAAAA.css", "/assets/shared-BBBBBBBB.css"]),
          "routes/page": route("routes/page", ["/assets/shared-BBBBBBBB.css", "/assets/page-CCCCCCCC.css"]),
          "routes/other": route("routes/other", ["/assets/other-DDDDDDDD.css"]),
        },
      },
      staticHandlerContext: {
        matches: [
          { route: { id: "root" } },
          { route: { id: "routes/docs" } },
          { route: { id: "routes/page" } },
        ],
      },
    } as unknown as Parameters<typeof routeStylesheets>[0];
    expect(routeStylesheets(context)).toEqual([
      "/assets/docs-AAAAAAAA.css",
      "/assets/shared-BBBBBBBB.css",
      "/assets/page-CCCCCCCC.css",
    ]);
  });
});
