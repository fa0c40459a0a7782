import { constants, createGunzip, gunzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { acceptsGzip, compressed } from "../../src/local-server/compression.ts";

const PAGE = { "Content-Type": "text/html; charset=utf-8" };

function get(acceptEncoding?: string, method = "GET"): Request {
  return new Request("http://127.0.0.1/", {
    method,
    headers: acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding },
  });
}

describe("acceptsGzip (RFC 9110 12.5.3)", () => {
  test.each([
    ["gzip, deflate, br, zstd", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["GZIP", true],
    ["x-gzip", true],
    ["*", true],
    ["gzip;q=0", false],
    ["gzip;q=0, *", false],
    ["*;q=0", false],
    ["br, zstd", false],
    ["identity", false],
    ["", false],
  ])("%j: %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  test("no header: not compressed", () => {
    expect(acceptsGzip(null)).toBe(false);
  });
});

describe("compressed", () => {
  test("a page: gzip, no length, Vary names Accept-Encoding, a strong ETag made weak; the bytes survive", async () => {
    const text = `<!DOCTYPE html><p>${"é and 中 ".repeat(500)}</p>`;
    const response = compressed(
      get("gzip, br"),
      new Response(text, {
        headers: { ...PAGE, "Content-Length": "1", ETag: '"abc"', Vary: "Cookie" },
      }),
    );
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
    expect(response.headers.get("Content-Length")).toBeNull();
    expect(response.headers.get("Vary")).toBe("Cookie, Accept-Encoding");
    expect(response.headers.get("ETag")).toBe('W/"abc"');
    const body = Buffer.from(await response.arrayBuffer());
    expect(gunzipSync(body).toString("utf8")).toBe(text);
    expect(body.byteLength).toBeLessThan(Buffer.byteLength(text) / 4);
  });

  test("status, status text and the other headers are kept; Vary is not doubled; a weak ETag stays", async () => {
    const response = compressed(
      get("gzip"),
      new Response("missing", {
        status: 404,
        statusText: "Not Found",
        headers: { "Content-Type": "text/plain", Vary: "accept-encoding", ETag: 'W/"x"', "X-Kept": "1" },
      }),
    );
    expect([response.status, response.statusText]).toEqual([404, "Not Found"]);
    expect(response.headers.get("Vary")).toBe("accept-encoding");
    expect(response.headers.get("ETag")).toBe('W/"x"');
    expect(response.headers.get("X-Kept")).toBe("1");
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe("missing");
  });

  test.each([
    ["a client that does not take gzip", get("br"), new Response("<p>x</p>", { headers: PAGE })],
    ["a client that sends no Accept-Encoding", get(), new Response("<p>x</p>", { headers: PAGE })],
    ["a HEAD request", get("gzip", "HEAD"), new Response(null, { headers: PAGE })],
    ["a 304", get("gzip"), new Response(null, { status: 304, headers: PAGE })],
    [
      "a range (206)",
      get("gzip"),
      new Response("<p>", { status: 206, headers: { ...PAGE, "Content-Range": "bytes 0-2/8" } }),
    ],
    [
      "a body encoded already",
      get("gzip"),
      new Response("xx", { headers: { ...PAGE, "Content-Encoding": "br" } }),
    ],
    [
      "Cache-Control: no-transform",
      get("gzip"),
      new Response("<p>x</p>", { headers: { ...PAGE, "Cache-Control": "public, no-transform" } }),
    ],
    ["an image", get("gzip"), new Response("PNG", { headers: { "Content-Type": "image/png" } })],
    ["a body of no type", get("gzip"), new Response("?", { headers: { "Content-Type": "" } })],
  ])("left as it is: %s", (_name, request, response) => {
    expect(compressed(request, response)).toBe(response);
  });

  test.each([
    "text/css",
    "text/javascript; charset=utf-8",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/problem+json",
    "image/svg+xml",
    "text/x-script",
  ])("%s is compressed", (type) => {
    const response = compressed(get("gzip"), new Response("{}", { headers: { "Content-Type": type } }));
    expect(response.headers.get("Content-Encoding")).toBe("gzip");
  });

  test("a streamed page stays streamed: each chunk leaves, compressed, before the next is written", async () => {
    const encoder = new TextEncoder();
    let release: () => void = () => {};
    const later = new Promise<void>((resolve) => {
      release = resolve;
    });
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode("<!DOCTYPE html><p>shell</p>"));
        await later;
        controller.enqueue(encoder.encode("<p>the rest</p>"));
        controller.close();
      },
    });
    const reader = compressed(get("gzip"), new Response(body, { headers: PAGE })).body?.getReader();
    if (!reader) throw new Error("no body");
    // Read as a browser does: inflate what has arrived so far.
    const gunzip = createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    let inflated = "";
    gunzip.on("data", (chunk: Buffer) => {
      inflated += chunk.toString("utf8");
    });
    const readUntil = async (text: string) => {
      while (!inflated.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`ended before ${JSON.stringify(text)}`);
        await new Promise((resolve) => gunzip.write(value, resolve));
      }
    };
    // Without a flush per chunk nothing arrives before the end: this read would wait until the test times out.
    await readUntil("<p>shell</p>");
    expect(inflated).not.toContain("the rest");
    release();
    await readUntil("<p>the rest</p>");
    // What is left is the gzip trailer: the stream ends, and ends valid.
    for (let next = await reader.read(); !next.done; next = await reader.read()) gunzip.write(next.value);
    await new Promise((resolve, reject) => gunzip.on("error", reject).end(resolve));
    expect(inflated).toBe("<!DOCTYPE html><p>shell</p><p>the rest</p>");
  }, 5_000);

  /** A built file as the assets server answers it: its length known, a strong ETag unless `etag` says otherwise. */
  function builtFile(
    body: ReadableStream<Uint8Array> | string,
    etag: string | null = '"v1"',
    status = 200,
  ): Response {
    return new Response(body, {
      status,
      headers: {
        "Content-Type": "text/javascript",
        "Content-Length": "100",
        ...(etag && { ETag: etag }),
      },
    });
  }
  /** A body that notes whether anything read it. */
  function watched(text: string): { body: ReadableStream<Uint8Array>; read: () => boolean } {
    let pulled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled = true;
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    });
    return { body, read: () => pulled };
  }
  const inflate = async (response: Response) =>
    gunzipSync(Buffer.from(await response.arrayBuffer())).toString("utf8");
  const getFile = (path: string) =>
    new Request(`http://127.0.0.1${path}`, { headers: { "Accept-Encoding": "gzip" } });

  test("a file of known length and strong ETag is compressed once: the next answer for it is the copy, its body unread", async () => {
    const script = `export const a = ${JSON.stringify("x".repeat(2000))};`;
    const first = compressed(getFile("/assets/a.js"), builtFile(script));
    expect(await inflate(first)).toBe(script);
    const again = watched(script);
    const second = compressed(getFile("/assets/a.js"), builtFile(again.body));
    expect(await inflate(second)).toBe(script);
    expect(again.read()).toBe(false);
    // Another ETag is another file: read and compressed.
    const changed = watched("export const a = 2;");
    const third = compressed(getFile("/assets/a.js"), builtFile(changed.body, '"v2"'));
    expect(await inflate(third)).toBe("export const a = 2;");
    expect(changed.read()).toBe(true);
  });

  test("a file whose length no header states (workerd's assets) but whose ETag is strong: compressed whole, kept", async () => {
    const script = `export const b = ${JSON.stringify("y".repeat(2000))};`;
    const unstated = (body: ReadableStream<Uint8Array> | string) =>
      new Response(body, { headers: { "Content-Type": "text/javascript", ETag: '"v1"' } });
    expect(await inflate(compressed(getFile("/assets/unstated.js"), unstated(script)))).toBe(script);
    const again = watched(script);
    expect(await inflate(compressed(getFile("/assets/unstated.js"), unstated(again.body)))).toBe(script);
    expect(again.read()).toBe(false);
  });

  test.each([
    ["a weak ETag", 'W/"v1"', 200],
    ["no ETag", null, 200],
    ["a 404 with a strong ETag", '"v1"', 404],
  ])("%s: compressed each time, never from a copy", async (name, etag, status) => {
    const path = `/assets/${name.replaceAll(" ", "-")}.js`;
    expect(await inflate(compressed(getFile(path), builtFile("export const a = 1;", etag, status)))).toBe(
      "export const a = 1;",
    );
    const next = watched("export const a = 2;");
    expect(await inflate(compressed(getFile(path), builtFile(next.body, etag, status)))).toBe(
      "export const a = 2;",
    );
    expect(next.read()).toBe(true);
  });

  test("a file whose body fails: the compressed body fails too, and nothing is kept", async () => {
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("disk gone"));
      },
    });
    await expect(compressed(getFile("/assets/b.js"), builtFile(failing)).arrayBuffer()).rejects.toThrow();
    const next = watched("export const b = 1;");
    expect(await inflate(compressed(getFile("/assets/b.js"), builtFile(next.body)))).toBe(
      "export const b = 1;",
    );
    expect(next.read()).toBe(true);
  });
});
