import { connect, type Socket } from "node:net";

export type RawResponse = { status: number; headers: Map<string, string>; body: string };

/**
 * Sends a request byte for byte over a socket and reads the answer until the server closes. For input
 * that fetch() would normalise or refuse to send (raw backslashes, no Host, control characters,
 * a body shorter than its Content-Length). Rejects after `timeoutMs` instead of hanging.
 */
export function rawRequest(url: URL, head: string, body: Uint8Array | string = "", timeoutMs = 20_000) {
  return new Promise<RawResponse>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A server may answer (431, 413) and close while the request is still being written: a write
    // error is not the outcome, the answer read until the socket closes is.
    let writeError: Error | undefined;
    socket.on("error", (error) => {
      writeError = error;
    });
    socket.on("close", () => {
      clearTimeout(timer);
      if (chunks.length === 0) return reject(writeError ?? new Error("closed without an answer"));
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    void writeUntilAnswered(
      socket,
      [Buffer.from(head, "latin1"), Buffer.from(body)],
      () => chunks.length > 0,
    );
  });
}

/** Writes in 16 KiB pieces and stops once the server has answered (it may refuse a large body early). */
async function writeUntilAnswered(socket: Socket, parts: Buffer[], answered: () => boolean): Promise<void> {
  const data = Buffer.concat(parts);
  for (let offset = 0; offset < data.length && !answered() && !socket.destroyed; offset += 16_384) {
    await new Promise<void>((resolve) =>
      socket.write(data.subarray(offset, offset + 16_384), () => resolve()),
    );
  }
}

/** `Host` and `Connection: close` for a raw request to `url`, plus the given header lines. */
export function rawHead(method: string, target: string, url: URL, lines: string[] = []): string {
  return [`${method} ${target} HTTP/1.1`, `Host: ${url.host}`, "Connection: close", ...lines, "", ""].join(
    "\r\n",
  );
}

function parseResponse(raw: Buffer): RawResponse {
  const split = raw.indexOf("\r\n\r\n");
  if (split === -1) throw new Error(`not an HTTP response: ${raw.toString("latin1").slice(0, 80)}`);
  const [statusLine = "", ...headerLines] = raw.subarray(0, split).toString("latin1").split("\r\n");
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = raw.subarray(split + 4);
  if (headers.get("transfer-encoding")?.includes("chunked")) body = dechunk(body);
  return { status: Number(statusLine.split(" ")[1]), headers, body: body.toString("utf8") };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", offset);
    if (lineEnd === -1) break;
    const size = Number.parseInt(body.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
