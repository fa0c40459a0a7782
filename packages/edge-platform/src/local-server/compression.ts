import { constants, createGzip, gzipSync } from "node:zlib";

/**
 * The local server compresses what Cloudflare's edge compresses, so `npm start` and the benchmarks send
 * what a visitor receives in production: without it, the first load's JavaScript crosses a throttled link
 * at three times its deployed size, and side-by-side figures against servers that compress (Next.js's)
 * are not comparable. Never deployed: in production Cloudflare compresses (and picks Brotli or zstd).
 *
 * Hand-written because neither of workerd's own ways keeps a streamed page streaming: a `Content-Encoding`
 * header (encodeBody "automatic") and `CompressionStream` both hold the output until the body ends, so a
 * Suspense fallback would arrive with its content. Node's gzip (nodejs_compat) can flush after each chunk,
 * so each chunk the app sends leaves at once. Only gzip: Brotli's flush gives nothing in workerd until the
 * end.
 *
 * A body of known length (a built file, a pre-rendered page) is whole when it arrives: it is compressed in one
 * go, and the copy is kept by URL and strong ETag. On Cloudflare compressing is the edge's work, never done on
 * the visitor's machine; here it shares the machine with the browser being measured. Without the copy, each
 * first load made this server gzip the 350 KB first-load chunk again (25-60 ms of CPU, against 2-4 ms to send
 * it as it is), just as the page commits and paints (packages/edge-platform/docs/PERFORMANCE.md, "First paint").
 */
export function compressed(request: Request, response: Response): Response {
  if (!response.body || !compressible(request, response)) return response;
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.set("Content-Encoding", "gzip");
  headers.set("Vary", withAcceptEncoding(headers.get("Vary")));
  // Another representation, other bytes: a strong validator would claim they are the same (RFC 9110
  // 8.8.3). Cloudflare weakens it the same way; the assets server matches weak validators on revalidation.
  const etag = headers.get("ETag");
  if (etag?.startsWith('"')) headers.set("ETag", `W/${etag}`);
  const stated = response.headers.get("Content-Length");
  const length = Number(stated ?? Number.NaN);
  const key = copyKey(request, response);
  // workerd's assets answer a built file with its length known to the runtime but in no header: its strong
  // ETag says the same, a file whole when it arrives (a streamed page carries none).
  const whole =
    stated === null ? key !== undefined : Number.isSafeInteger(length) && length <= WHOLE_BODY_LIMIT;
  const body = whole ? gzipWhole(response.body, key) : gzipEachChunk(response.body);
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers,
    // The body is gzip already: workerd must send it as it is.
    encodeBody: "manual",
  });
}

/** Bodies up to this length (bytes) are compressed whole; longer ones chunk by chunk, as streamed ones are. */
const WHOLE_BODY_LIMIT = 8 * 1024 * 1024;
/** The compressed copies kept (bytes of gzip), the least recently served dropped first. */
const COPIES_LIMIT = 32 * 1024 * 1024;
const copies = new Map<string, Uint8Array>();
let copiedBytes = 0;

/**
 * What names a compressed copy: the URL and a strong ETag (the same bytes, RFC 9110 8.8.3), for a 200 only. A
 * weak or missing validator does not say the bytes are the same: such a body is compressed every time.
 */
function copyKey(request: Request, response: Response): string | undefined {
  const etag = response.headers.get("ETag");
  return response.status === 200 && etag?.startsWith('"') ? `${request.url} ${etag}` : undefined;
}

/** The whole body gzipped in one go, or the copy kept for `key` (the body then left unread). */
function gzipWhole(body: ReadableStream<Uint8Array>, key: string | undefined): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        const kept = key === undefined ? undefined : copies.get(key);
        if (key !== undefined && kept) {
          await body.cancel();
          // Served again: the most recently used now.
          copies.delete(key);
          copies.set(key, kept);
          controller.enqueue(kept.slice());
          controller.close();
          return;
        }
        const zipped = new Uint8Array(gzipSync(new Uint8Array(await new Response(body).arrayBuffer())));
        if (key !== undefined) keep(key, zipped);
        controller.enqueue(zipped.slice());
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}

function keep(key: string, zipped: Uint8Array): void {
  if (zipped.byteLength > COPIES_LIMIT) return;
  // Two misses of one file at once: the second copy replaces the first.
  copiedBytes -= copies.get(key)?.byteLength ?? 0;
  copies.delete(key);
  copies.set(key, zipped);
  copiedBytes += zipped.byteLength;
  for (const [oldest, bytes] of copies) {
    if (copiedBytes <= COPIES_LIMIT) break;
    copies.delete(oldest);
    copiedBytes -= bytes.byteLength;
  }
}

/** Media types Cloudflare compresses that this app serves: text, scripts, data, SVG, manifests. */
const COMPRESSIBLE =
  /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)|\+(json|xml)$/;

function compressible(request: Request, response: Response): boolean {
  const mediaType = response.headers.get("Content-Type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  return (
    request.method !== "HEAD" &&
    acceptsGzip(request.headers.get("Accept-Encoding")) &&
    ![204, 206, 304].includes(response.status) &&
    !response.headers.has("Content-Encoding") &&
    !/\bno-transform\b/i.test(response.headers.get("Cache-Control") ?? "") &&
    COMPRESSIBLE.test(mediaType)
  );
}

/** Whether an `Accept-Encoding` header takes gzip: named (or `*`) without `q=0` (RFC 9110 12.5.3). */
export function acceptsGzip(header: string | null): boolean {
  const codings = new Map(
    (header ?? "").split(",").map((item) => {
      const [coding = "", ...parameters] = item.split(";").map((part) => part.trim().toLowerCase());
      const q = parameters.find((parameter) => parameter.startsWith("q="));
      return [coding, q === undefined ? 1 : Number(q.slice(2))] as const;
    }),
  );
  const weight = codings.get("gzip") ?? codings.get("x-gzip") ?? codings.get("*") ?? 0;
  return weight > 0;
}

function withAcceptEncoding(vary: string | null): string {
  const names = (vary ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.some((name) => name === "*" || name.toLowerCase() === "accept-encoding")) return names.join(", ");
  return [...names, "Accept-Encoding"].join(", ");
}

/**
 * The body gzipped, flushed after every chunk so a streamed page keeps arriving as it is rendered. A sync
 * flush keeps the dictionary: Node's default, a full flush, resets it at every chunk, and a file sent in many
 * chunks compresses far worse (packages/edge-platform/docs/PERFORMANCE.md, "Conditions").
 */
function gzipEachChunk(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const gzip = createGzip();
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        gzip.on("data", (chunk: Uint8Array) => controller.enqueue(new Uint8Array(chunk)));
        gzip.on("error", (error) => controller.error(error));
      },
      transform(chunk) {
        return new Promise<void>((resolve) => {
          gzip.write(chunk);
          gzip.flush(constants.Z_SYNC_FLUSH, () => resolve());
        });
      },
      flush() {
        return new Promise<void>((resolve, reject) => {
          gzip.once("end", resolve).once("error", reject);
          gzip.end();
        });
      },
      // The client went away (or the app's body failed): free zlib's memory now, not at collection.
      cancel() {
        gzip.destroy();
      },
    }),
  );
}
