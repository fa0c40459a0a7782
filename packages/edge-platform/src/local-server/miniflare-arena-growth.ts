import { rewriteOnLoad } from "../rewrite-on-load.ts";

/**
 * Miniflare (5.20261023.3-beta, and the 5.20261012.0-beta inside @cloudflare/vite-plugin) hands workerd its
 * configuration as one Cap'n Proto message, built in a single-segment arena that grows by what each write needs
 * (at least 4 KiB) and copies the whole arena every time. The configuration holds every module's source (the
 * fixture's: 3.6 MB), so each of hundreds of small writes after the first large ones copies megabytes. Measured
 * 2026-11-29 on the fixture's build, starts after the first in one process: Node's CPU per start 1.37-1.57 s before,
 * 0.62-0.65 s after; a start 1.75-1.81 s before, 0.96-1.0 s after; the whole start with workerd 1.71 CPU s before,
 * 1.13-1.21 after. Paid by every `npm start`, every benchmark and about a hundred server starts in `npm test`.
 * Reported upstream as cloudflare/workers-sdk#15271 (open).
 *
 * This makes the arena at least double when it grows, as arenas usually do, in Miniflare's code as Node loads it
 * (the way react-router-env-dir.ts changes React Router's). What is sent is unchanged: the message is written out
 * up to the bytes used, never the arena's free space. Once Miniflare grows its arena otherwise there is nothing to
 * replace, and tests/unit/miniflare-arena-growth.test.ts says this module can go.
 */
const GROWTH =
  /(const srcBuffer = segments\.length > 0 \? segments\[0\]\.buffer : s\.buffer;\s*)minSize = (minSize < MIN_SINGLE_SEGMENT_GROWTH \? MIN_SINGLE_SEGMENT_GROWTH : padToWord\$?\d*\(minSize\));/;

/** Whether a module URL is a Miniflare's built entry (any copy of the package). */
export function isMiniflareModule(url: string): boolean {
  return url.startsWith("file:") && url.endsWith("/node_modules/miniflare/dist/src/index.js");
}

/** The module's source with its single-segment arena growing by at least its own size. */
export function withGeometricArenaGrowth(source: string): string {
  return source.replace(GROWTH, "$1minSize = Math.max($2, srcBuffer.byteLength);");
}

let registered = false;

/**
 * Changes every Miniflare this process loads from now on. Call it before the first import of `miniflare` or
 * `wrangler` (which loads it): a module already loaded is not loaded again.
 */
export function growMiniflareArenasGeometrically(): void {
  if (registered) return;
  registered = true;
  rewriteOnLoad(isMiniflareModule, withGeometricArenaGrowth);
}
