import { describe, expect, test } from "vitest";
import { routeStylesheets, splitHead } from "../../src/rendered-head";

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
