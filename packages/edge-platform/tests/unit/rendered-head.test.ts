import { describe, expect, test } from "vitest";
import { readRenderedHead, routeStylesheets, splitHead } from "../../src/rendered-head";

describe("readRenderedHead (what React wrote in <head>)", () => {
  test("the head's links by rel and href, in order, whatever the attributes' order; none from the body", () => {
    const html =
      '<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/a.js" nonce="n"/>' +
      '<link nonce="n" href="/assets/app.css" rel="stylesheet" data-precedence="default"/><link rel="icon"/>' +
      '</head><body><link rel="stylesheet" href="/assets/late.css"/></body></html>';
    expect(readRenderedHead(html).headLinks).toEqual([
      { rel: "modulepreload", href: "/assets/a.js" },
      { rel: "stylesheet", href: "/assets/app.css" },
    ]);
  });

  test("the inlined stylesheets by data-href, in the head only", () => {
    const html =
      '<html><head><style data-precedence="/assets/app.css" data-href="/assets/app.css">p{}</style><style>a{}</style>' +
      '</head><body><style data-href="/assets/body.css"></style></body></html>';
    expect(readRenderedHead(html).inlineStylesheets).toEqual(["/assets/app.css"]);
  });

  test("reads as far as the head goes when the rest has not been rendered", () => {
    expect(readRenderedHead('<html><head><link rel="modulepreload" href="/assets/a.js"/>').headLinks).toEqual(
      [{ rel: "modulepreload", href: "/assets/a.js" }],
    );
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
