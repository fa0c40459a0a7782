/** A body larger than the limit: the caller answers 413 without having buffered it. */
export const TOO_LARGE = Symbol("too large");

/** The body as bytes, refusing to buffer more than `maxBytes` (declared or streamed). */
export async function readLimitedBody(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | typeof TOO_LARGE> {
  const declared = Number(request.headers.get("Content-Length"));
  if (declared > maxBytes) return TOO_LARGE;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
