/**
 * `edge-platform/testing` (Node): what the platform's tests use and a product's tests may too: the built app's
 * test variables and limits, Chromium's path and flags, a local stand-in for Sentry's ingest and a server that
 * reports to it, raw HTTP requests, a free port, one rate-limit window, Worker log lines as printed.
 */
export * from "./build-under-test.ts";
export * from "./chromium.ts";
export * from "./first-load.ts";
export * from "./free-port.ts";
export * from "./ingest-stand-in.ts";
export * from "./rate-limit-window.ts";
export * from "./raw-http.ts";
export * from "./serve-with-ingest.ts";
export * from "./worker-logs.ts";
