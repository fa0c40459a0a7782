/**
 * How long starting a server in workerd may take, in a worker fixture or a `beforeAll` (both are bounded by the
 * test timeout otherwise). Alone it takes a second or two; with the product's suites running beside the
 * platform's (`npm test` runs two lanes) one start took over 30 s in a clean-clone run.
 */
export const SERVER_START_TIMEOUT_MS = 90_000;
