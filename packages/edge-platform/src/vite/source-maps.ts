/**
 * Build-time only (the platform's Vite plugins: debug-ids.ts, source-maps-outside-assets.ts, sentry-upload.ts): debug IDs, where the source maps go and whether they are uploaded to
 * Sentry (packages/edge-platform/docs/decisions/009-source-maps.md). Each built JavaScript file registers its debug ID when it
 * runs; its map carries the same ID, and Sentry pairs a reported frame with its map by it.
 */

/** The line a build prints when it cannot upload; the build itself is the same either way. */
export const SOURCE_MAPS_NOT_UPLOADED =
  "source maps not uploaded: set SENTRY_AUTH_TOKEN, SENTRY_ORG, SENTRY_PROJECT";

export type SourceMapUpload =
  | { upload: true; authToken: string; org: string; project: string }
  | { upload: false };

/** Uploading needs all three variables; a partial set is treated as none (and says so). */
export function sourceMapUpload(env: Record<string, string | undefined>): SourceMapUpload {
  const authToken = env.SENTRY_AUTH_TOKEN?.trim();
  const org = env.SENTRY_ORG?.trim();
  const project = env.SENTRY_PROJECT?.trim();
  return authToken && org && project ? { upload: true, authToken, org, project } : { upload: false };
}

/** Stands for a file's debug ID until its code is final; as long as one, so the map stays true. */
export const DEBUG_ID_PLACEHOLDER = "00000000-0000-4000-8000-debug1dplace";

/**
 * What each built file runs first: it files its debug ID under its own stack, where both Sentry SDKs look
 * (`_sentryDebugIds`, keyed by a stack whose frame names the file), and names it once more in
 * `_sentryDebugIdIdentifier` as `sentry-dbid-<id>`, which is how @sentry/vite-plugin finds a file's ID (and
 * sees that the file has one, so it adds no snippet of its own). It does what the plugin's snippet does in far
 * fewer bytes (packages/edge-platform/docs/decisions/009-source-maps.md compares them): each first-load file
 * carries one, and the first-load budget (packages/edge-platform/docs/PERFORMANCE.md, "First load") has no room for more.
 */
export const DEBUG_ID_SNIPPET = `(globalThis._sentryDebugIds??={})[Error().stack]="${DEBUG_ID_PLACEHOLDER}";globalThis._sentryDebugIdIdentifier="sentry-dbid-${DEBUG_ID_PLACEHOLDER}";`;

/**
 * A file's debug ID: a UUID (version 4 layout, as Sentry's tools make them) from the SHA-256 of its code,
 * so the same code always gets the same ID and different code a different one.
 */
export async function debugIdFor(code: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(code));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const variant = "89ab"[Number.parseInt(hex.charAt(16), 16) % 4];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const DEBUG_ID_IN_BUNDLE = /sentry-dbid-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/;

/** The debug ID @sentry/vite-plugin put into a built file (`_sentryDebugIdIdentifier`), if any. */
export function debugIdOfBundle(code: string): string | undefined {
  return DEBUG_ID_IN_BUNDLE.exec(code)?.[1];
}

/**
 * The map with the file's debug ID in it, under both names tools read (`debugId`, the proposed standard,
 * and `debug_id`, what sentry-cli writes), as the plugin does on the copies it uploads.
 */
export function mapWithDebugId(mapSource: string, debugId: string): string {
  const map = JSON.parse(mapSource) as Record<string, unknown>;
  return JSON.stringify({ ...map, debugId, debug_id: debugId });
}
