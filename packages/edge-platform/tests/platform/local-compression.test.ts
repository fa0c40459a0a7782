import { readFile } from "node:fs/promises";
import { type IncomingHttpHeaders, request } from "node:http";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ServedBuild, serveBuild } from "../../src/local-server/serve-build.ts";
import { FIXTURE_BUILD_DIRECTORY, TEST_VARS } from "../../src/testing/build-under-test.ts";

// The local server (`npm start`, the benchmarks, the browser tests) sends what Cloudflare would: compressed
// when the client takes gzip (packages/edge-platform/src/local-server/compression.ts). Read with node:http, which shows
// the bytes as sent (fetch would inflate them).

let app: ServedBuild;

beforeAll(async () => {
  app = await serveBuild({ buildDirectory: FIXTURE_BUILD_DIRECTORY, vars: TEST_VARS });
});

afterAll(async () => {
  await app?.close();
});

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, app.url), { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }),
      );
    });
    outgoing.on("error", reject).end();
  });
}

const GZIP = { "Accept-Encoding": "gzip, deflate, br, zstd" };

describe("compressed for a client that takes gzip, as Cloudflare sends it", () => {
  test.each(["/now", "/", "/items.data"])(
    "%s: the same bytes, gzip, and Vary names Accept-Encoding",
    async (path) => {
      const plain = await get(path);
      const zipped = await get(path, GZIP);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(zipped.status).toBe(200);
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(zipped.headers.vary).toMatch(/accept-encoding/i);
      expect(zipped.body.byteLength).toBeLessThan(plain.body.byteLength);
      // /now and /items render their time per request, and every page its nonce: compare the rest.
      const text = (body: Buffer) =>
        body
          .toString("utf8")
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "T")
          .replace(/nonce="[^"]*"/g, "nonce")
          .replace(/data-rendered-at="\d+"/g, "data-rendered-at")
          .replace(/<time\b[^>]*>[^<]*<\/time>/g, "<time>");
      expect(text(gunzipSync(zipped.body))).toBe(text(plain.body));
    },
  );

  test("a built script: its own bytes, compressed once, a weak ETag, and revalidation by that ETag answers 304", async () => {
    const html = (await get("/")).body.toString("utf8");
    const script = html.match(/\/assets\/first-load-[\w-]+\.js/)?.[0];
    if (!script) throw new Error("/ links no first-load script");
    const onDisk = await readFile(join(FIXTURE_BUILD_DIRECTORY, "client", script));
    const zipped = await get(script, GZIP);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.body).equals(onDisk)).toBe(true);
    // A file's length is known: compressed whole, within 1% of Node's gzip of it; the next answer sends the
    // same bytes (that they are a kept copy, not compressed again, is tests/unit/local-compression.test.ts's).
    expect(zipped.body.byteLength).toBeLessThan(gzipSync(onDisk).byteLength * 1.01);
    expect((await get(script, GZIP)).body.equals(zipped.body)).toBe(true);
    const etag = zipped.headers.etag ?? "";
    expect(etag).toMatch(/^W\/"/);
    const revalidated = await get(script, { ...GZIP, "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers["content-encoding"]).toBeUndefined();
    expect(revalidated.body.byteLength).toBe(0);
  });

  test.each([
    ["no Accept-Encoding", {}],
    ["gzip refused (q=0)", { "Accept-Encoding": "gzip;q=0, br" }],
  ])("%s: sent as it is", async (_name, headers) => {
    const answer = await get("/now", headers);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.toString("utf8")).toContain("<h1>Now</h1>");
  });

  test("HEAD: no body and no Content-Encoding", async () => {
    const answer = await get("/now", GZIP, "HEAD");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.byteLength).toBe(0);
  });

  test("the guard's own refusals stay plain text", async () => {
    const answer = await get("/now", { ...GZIP, Host: "rebound.example" });
    expect(answer.status).toBe(403);
    expect(answer.headers["content-encoding"]).toBeUndefined();
  });
});
