import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A Sentry SaaS DSN for tests and benchmarks: it turns the tunnel on; its reports go to the stand-in. */
export const TEST_DSN =
  "https://0123456789abcdef0123456789abcdef@o4500000000000001.ingest.sentry.io/4500000000000002";
/** The tunnel query the browser SDK uses for TEST_DSN. */
export const TEST_TUNNEL_QUERY = "o=4500000000000001&p=4500000000000002";

/** One request as the stand-in received it, body as raw bytes. */
export type ReceivedRequest = { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer };

/** How the stand-in answers; the default is Sentry's 200 `{"id": ...}`. */
export type IngestAnswer = (request: ReceivedRequest, response: ServerResponse) => void;

export type IngestStandIn = {
  /** http://127.0.0.1:<port>: what SENTRY_INGEST_TEST_ORIGIN is set to. */
  origin: string;
  received: ReceivedRequest[];
  answerWith(answer: IngestAnswer): void;
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
};

const answerOk: IngestAnswer = (request, response) => {
  // Sentry answers any accepted envelope, whether or not its items parse.
  let eventId = "0".repeat(32);
  try {
    eventId = parseEnvelope(request.body).header.event_id ?? eventId;
  } catch {}
  // Browsers reporting to a self-hosted Sentry directly read the answer cross-origin, as Sentry allows.
  response
    .writeHead(200, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" })
    .end(JSON.stringify({ id: eventId }));
};

/** A local stand-in for Sentry's ingest (Sentry itself cannot be reached from here). */
export async function startIngestStandIn(): Promise<IngestStandIn> {
  const received: ReceivedRequest[] = [];
  let answer = answerOk;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answerWith(next) {
      answer = next;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`ingest stand-in: ${received.length} of ${count} requests`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received.slice(0, count);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export type EnvelopeItem = { header: Record<string, unknown>; payload: Buffer };

/** Splits a Sentry envelope into its header and items (items may be binary, with a `length`). */
export function parseEnvelope(body: Buffer): {
  header: Record<string, string | undefined>;
  items: EnvelopeItem[];
} {
  let offset = 0;
  const readLine = () => {
    const end = body.indexOf(0x0a, offset);
    const line = body.subarray(offset, end === -1 ? body.length : end);
    offset = end === -1 ? body.length : end + 1;
    return line;
  };
  const header = JSON.parse(readLine().toString("utf8") || "{}");
  const items: EnvelopeItem[] = [];
  while (offset < body.length) {
    const line = readLine();
    if (line.length === 0) continue;
    const itemHeader = JSON.parse(line.toString("utf8")) as Record<string, unknown>;
    let payload: Buffer;
    if (typeof itemHeader.length === "number") {
      payload = body.subarray(offset, offset + itemHeader.length);
      offset += itemHeader.length + 1;
    } else {
      payload = readLine();
    }
    items.push({ header: itemHeader, payload });
  }
  return { header, items };
}

/** The events (items of type "event") in everything the stand-in received. */
export function receivedEvents(received: ReceivedRequest[]): Record<string, unknown>[] {
  return received.flatMap((request) =>
    parseEnvelope(request.body)
      .items.filter((item) => item.header.type === "event")
      .map((item) => JSON.parse(item.payload.toString("utf8")) as Record<string, unknown>),
  );
}

/** The transactions in everything the stand-in received. */
export function receivedTransactions(received: ReceivedRequest[]): Record<string, unknown>[] {
  return received.flatMap((request) =>
    parseEnvelope(request.body)
      .items.filter((item) => item.header.type === "transaction")
      .map((item) => JSON.parse(item.payload.toString("utf8")) as Record<string, unknown>),
  );
}

/** A span as Sentry's span v2 items carry it (standalone spans, e.g. INP), its attributes' values unwrapped. */
export type ReceivedSpan = {
  trace_id: string;
  span_id: string;
  parent_span_id?: string;
  name: string;
  start_timestamp: number;
  end_timestamp: number;
  attributes: Record<string, unknown>;
};

/** The spans sent on their own (items of type "span", span v2 containers) in everything the stand-in received. */
export function receivedSpans(received: ReceivedRequest[]): ReceivedSpan[] {
  return received.flatMap((request) =>
    parseEnvelope(request.body)
      .items.filter((item) => item.header.type === "span")
      .flatMap((item) => {
        const container = JSON.parse(item.payload.toString("utf8")) as { items?: Record<string, unknown>[] };
        return (container.items ?? []).map((span) => ({
          ...(span as Omit<ReceivedSpan, "attributes">),
          attributes: Object.fromEntries(
            Object.entries((span.attributes ?? {}) as Record<string, { value?: unknown }>).map(
              ([name, attribute]) => [name, attribute?.value],
            ),
          ),
        }));
      }),
  );
}
