// The platform's renderer (app/platform/entry.server.tsx): streaming, the nonce, security headers, error digests.
export { default, handleError, instrumentations, streamTimeout } from "./platform/entry.server";
