/** The body as bytes, or why it was not read (with the status and message to answer). */
export type BodyRead =
  | { ok: true; body: Uint8Array<ArrayBuffer> }
  | { ok: false; status: 400 | 408 | 413; message: string };

export type BodyLimits = {
  /** Larger bodies (declared or streamed) are refused without being buffered. */
  maxBytes: number;
  /** The whole body must arrive within this time: a client that stalls cannot hold the request open. */
  timeoutMs: number;
};

/** Reads a request body within a size and a time limit. Never throws for anything the client does. */
export async function readLimitedBody(
  request: Request,
  { maxBytes, timeoutMs }: BodyLimits,
): Promise<BodyRead> {
  const read = await readLimited(request.body, request.headers.get("Content-Length"), {
    maxBytes,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (read.ok) return read;
  switch (read.failure) {
    case "too large":
      return { ok: false, status: 413, message: `Payload Too Large: the limit is ${maxBytes} bytes.` };
    case "aborted":
      return {
        ok: false,
        status: 408,
        message: `Request Timeout: the body did not arrive within ${timeoutMs} ms.`,
      };
    case "unreadable":
      // The client went away or sent a body shorter than it declared.
      return { ok: false, status: 400, message: "Bad Request: the body could not be read to its end." };
  }
}

/** A stream read to its end within the limits, or why not. */
export type LimitedRead =
  | { ok: true; body: Uint8Array<ArrayBuffer> }
  | { ok: false; failure: "too large" | "aborted" | "unreadable" };

/**
 * The one bounded read of a body (a request's or an upstream answer's): at most `maxBytes` are ever held,
 * a larger declared `Content-Length` is refused unread, and `signal` (a deadline) stops it however slowly
 * bytes drip in. What is left unread is cancelled. Never throws.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null,
  { maxBytes, signal }: { maxBytes: number; signal: AbortSignal },
): Promise<LimitedRead> {
  if (Number(declaredLength) > maxBytes) {
    void body?.cancel().catch(() => {});
    return { ok: false, failure: "too large" };
  }
  if (!body) return { ok: true, body: new Uint8Array() };
  const reader = body.getReader();
  let stop: () => void = () => {};
  const aborted = new Promise<"aborted">((resolve) => {
    stop = () => resolve("aborted");
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), aborted]);
      if (next === "aborted") return { ok: false, failure: "aborted" };
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) return { ok: false, failure: "too large" };
      chunks.push(next.value);
    }
  } catch {
    return { ok: false, failure: signal.aborted ? "aborted" : "unreadable" };
  } finally {
    signal.removeEventListener("abort", stop);
    void reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, body: bytes };
}
