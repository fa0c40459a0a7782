/**
 * Local fronts for bench/first-paint.ts: the other site a visitor comes from, a proxy that adds
 * `Cross-Origin-Opener-Policy: same-origin` in front of a server that sends none (the anchors), a TLS HTTP/2
 * front (self-signed certificate made at run time with openssl), and a server of saved documents.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import { createSecureServer, type Http2SecureServer } from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export type Front = { url: string; close(): Promise<void> };

async function listen(server: Server | Http2SecureServer, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

function closer(server: Server | Http2SecureServer): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if ("closeAllConnections" in server) server.closeAllConnections();
      server.close(() => resolve());
    });
}

/**
 * The page a visitor leaves: `http://localhost:<port>/?to=<url>` is a link to `<url>`, on another site than
 * the servers measured (127.0.0.1). Following it is a cross-site navigation, as from a search result.
 */
export async function startReferrer(): Promise<Front & { link(to: string): string }> {
  const server = createServer((req, res) => {
    const to = new URL(req.url ?? "/", "http://localhost").searchParams.get("to") ?? "";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>elsewhere</title></head>` +
        `<body><a id="go" href="${to.replace(/[&"<>]/g, "")}">go</a></body></html>`,
    );
  });
  const port = await listen(server, "127.0.0.1");
  const url = `http://localhost:${port}`;
  return { url, link: (to) => `${url}/?to=${encodeURIComponent(to)}`, close: closer(server) };
}

/** Headers a proxy must not pass on (hop-by-hop; HTTP/2 forbids them). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && !name.startsWith(":")) out[name] = value;
  return out;
}

type ProxyOptions = {
  /** Adds `Cross-Origin-Opener-Policy: same-origin` to every HTML response that has none. */
  coop?: boolean;
  /** Serves HTTPS over HTTP/2 (a self-signed certificate; the browser context ignores its errors). */
  h2?: boolean;
  /**
   * Answers a content-addressed file (`/assets/`, `/_next/static/`) from memory after its first 200: the
   * server behind then spends no CPU on it, as a CDN's visitor's machine never does. For measuring what the
   * local server's own work costs the page, on the two cores the browser uses too.
   */
  holdAssets?: boolean;
};

/** A content-addressed file's path: its bytes never change under its name. */
const CONTENT_ADDRESSED = /^\/(assets|_next\/static)\//;

let certificate: { key: Buffer; cert: Buffer } | undefined;
/** A self-signed certificate for 127.0.0.1, made once per run with openssl. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), "first-paint-cert-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        .concat(["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(dir, "key.pem")])
        .concat(["-out", join(dir, "cert.pem")]),
      { stdio: "ignore" },
    );
    certificate = { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A streaming proxy to `upstream` (an HTTP/1.1 origin) on 127.0.0.1. */
export async function startProxy(upstream: string, options: ProxyOptions): Promise<Front> {
  const target = new URL(upstream);
  const held = new Map<string, { headers: Record<string, string | string[]>; body: Buffer }>();
  const handler = (
    req: {
      method?: string;
      url?: string;
      headers: IncomingHttpHeaders;
      pipe(to: NodeJS.WritableStream): unknown;
    },
    res: {
      writeHead(status: number, headers: Record<string, string | string[]>): unknown;
      end(): unknown;
    } & NodeJS.WritableStream,
  ) => {
    const headers = forwardable(req.headers);
    headers.host = target.host;
    const key =
      options.holdAssets && req.method === "GET" && CONTENT_ADDRESSED.test(req.url ?? "")
        ? `${req.url} ${String(req.headers["accept-encoding"] ?? "")}`
        : undefined;
    const kept = key ? held.get(key) : undefined;
    if (kept) {
      res.writeHead(200, kept.headers);
      res.end(kept.body);
      return;
    }
    const forwarded = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        const out = forwardable(answer.headers);
        if (options.coop && /text\/html/.test(String(answer.headers["content-type"])))
          out["cross-origin-opener-policy"] ??= "same-origin";
        res.writeHead(answer.statusCode ?? 502, out);
        if (key && answer.statusCode === 200) {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => held.set(key, { headers: out, body: Buffer.concat(chunks) }));
        }
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => {
      res.writeHead(502, {});
      res.end();
    });
    req.pipe(forwarded);
  };
  const server = options.h2
    ? createSecureServer({ ...selfSigned(), allowHTTP1: false }, handler as never)
    : createServer(handler as never);
  const port = await listen(server, "127.0.0.1");
  return { url: `${options.h2 ? "https" : "http"}://127.0.0.1:${port}`, close: closer(server) };
}

/**
 * Saved documents, for controlled experiments (bench/first-paint/variants.ts): `dir/<name>.html`, each served
 * at every path but `/assets/` on a server of its own with the headers of `dir/headers.json` (a response's
 * headers as saved, less those of its transfer); `/assets/` and everything else is proxied to `app`.
 */
export async function startDocuments(dir: string, app: string): Promise<(Front & { name: string })[]> {
  const { readdirSync } = await import("node:fs");
  const saved: Record<string, string> = JSON.parse(readFileSync(join(dir, "headers.json"), "utf8"));
  const target = new URL(app);
  const servers: (Front & { name: string })[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".html"))
    .sort()) {
    const name = file.slice(0, -".html".length);
    const document = readFileSync(join(dir, file));
    const compressedDocument = gzipSync(document);
    // A variant's own headers: `dir/<name>.headers.json`, merged over the saved ones (null removes one).
    let own: Record<string, string | null> = {};
    try {
      own = JSON.parse(readFileSync(join(dir, `${name}.headers.json`), "utf8"));
    } catch {}
    const headers: Record<string, string> = {};
    for (const [header, value] of Object.entries({ ...saved, ...own }))
      if (
        value !== null &&
        !["content-length", "content-encoding", "transfer-encoding", "date"].includes(header)
      )
        headers[header] = value;
    const server = createServer((req, res) => {
      const path = req.url ?? "/";
      if (!path.startsWith("/assets/") && !path.startsWith("/favicon")) {
        // Compressed as the live app's local server and Cloudflare send it, so its bytes compare.
        const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
        const body = gzip ? compressedDocument : document;
        res.writeHead(200, {
          ...headers,
          ...(gzip && { "content-encoding": "gzip", vary: "Accept-Encoding" }),
          "content-length": String(body.length),
        });
        res.end(body);
        return;
      }
      const forwarded = request(
        {
          host: target.hostname,
          port: target.port,
          path,
          headers: { ...forwardable(req.headers), host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
          answer.pipe(res);
        },
      );
      forwarded.on("error", () => res.destroy());
      forwarded.end();
    });
    const port = await listen(server, "127.0.0.1");
    servers.push({ name, url: `http://127.0.0.1:${port}`, close: closer(server) });
  }
  return servers;
}
