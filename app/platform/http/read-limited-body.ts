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
  const declared = Number(request.headers.get("Content-Length"));
  if (declared > maxBytes) return tooLarge(maxBytes);
  if (!request.body) return { ok: true, body: new Uint8Array() };
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "timeout") {
        void reader.cancel().catch(() => {});
        return {
          ok: false,
          status: 408,
          message: `Request Timeout: the body did not arrive within ${timeoutMs} ms.`,
        };
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) {
        void reader.cancel().catch(() => {});
        return tooLarge(maxBytes);
      }
      chunks.push(next.value);
    }
  } catch {
    // The client went away or sent a body shorter than it declared.
    return { ok: false, status: 400, message: "Bad Request: the body could not be read to its end." };
  } finally {
    clearTimeout(timer);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, body };
}

function tooLarge(maxBytes: number): BodyRead {
  return { ok: false, status: 413, message: `Payload Too Large: the limit is ${maxBytes} bytes.` };
}
