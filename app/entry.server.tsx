// The platform's renderer (packages/edge-platform/src/entry.server.tsx): streaming, the nonce, security headers, error digests.
export { default, handleError, instrumentations, streamTimeout } from "edge-platform/entry.server";
