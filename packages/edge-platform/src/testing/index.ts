/**
 * `edge-platform/testing` (Node): what the platform's tests use and a product's tests may too: the built app's
 * test variables and limits, Chromium's path and flags, a local stand-in for Sentry's ingest and a server that
 * reports to it, raw HTTP requests, a free port, one rate-limit window, Worker log lines as printed.
 */

// The application-error page's sentences, for tests that read the page (edge-platform/react would bring the
// whole document, which only a build can load).
export { CLIENT_ERROR_MESSAGE, SERVER_ERROR_MESSAGE } from "../errors/error-messages.ts";
// What tests assert against: the policies the platform writes and the debug IDs it puts in built files.
export { contentSecurityPolicy, NON_DOCUMENT_CSP, scriptHash } from "../headers.ts";
export { DEBUG_ID_PLACEHOLDER, debugIdOfBundle } from "../vite/source-maps.ts";
export { HEADERS_FILE_MAX_RULES } from "../vite/static-page-headers.ts";
export * from "./build-under-test.ts";
export * from "./chromium.ts";
export * from "./first-load.ts";
export * from "./free-port.ts";
export * from "./ingest-stand-in.ts";
export * from "./inline-scripts.ts";
export * from "./rate-limit-window.ts";
export * from "./raw-http.ts";
export * from "./serve-with-ingest.ts";
export * from "./worker-logs.ts";
