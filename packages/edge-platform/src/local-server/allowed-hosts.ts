import { isLoopbackHostname } from "../http/loopback.ts";

/**
 * DNS rebinding: a page on evil.example whose name an attacker points at 127.0.0.1 reaches a local server
 * as same-origin to itself. So local serving (`npm run dev`, `npm start`, the tests) answers only loopback
 * names and the names in LOCAL_ALLOWED_HOSTS: comma-separated, exact names, or `.example.com` for it and its
 * subdomains (Vite's `server.allowedHosts` syntax, which the dev server is given).
 */
export function allowedHostsFrom(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * Whether the local server answers for `hostname` (a URL hostname: lower-case, IPv6 in brackets).
 * Self-contained but for isLoopbackHostname: the host guard runs both functions' source text in workerd.
 */
export function isAllowedHost(hostname: string, allowedHosts: readonly string[]): boolean {
  if (isLoopbackHostname(hostname)) return true;
  return allowedHosts.some((name) =>
    name.startsWith(".") ? hostname === name.slice(1) || hostname.endsWith(name) : hostname === name,
  );
}
