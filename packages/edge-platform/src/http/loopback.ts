/**
 * The one definition of "loopback" (URL hostnames, lower-cased as `new URL()` gives them): what local
 * serving (`npm start`, the tests, `npm run dev`) answers without being told, what browsers treat as a
 * secure context over plain http, and what a deployed Worker can never reach. `*.localhost` always resolves
 * to loopback (RFC 6761); `[::1]` is how a URL spells IPv6's. Self-contained (no imports, no outer names):
 * the local server's host guard runs its source text in workerd (packages/edge-platform/src/local-server/serve-build.ts).
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === "localhost" || name === "127.0.0.1" || name === "[::1]" || name.endsWith(".localhost");
}
