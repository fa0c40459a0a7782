import { resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare, type WorkerdStructuredLog } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

/** The deploy config that @cloudflare/vite-plugin writes next to the built Worker. */
const BUILT_WORKER_CONFIG = resolve(import.meta.dirname, "../../build/server/wrangler.json");

export type ServeBuildOptions = {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Variables layered over the deploy configuration's own `vars`. */
  vars?: Record<string, string>;
  /** Receives every line the Worker logs (console.*) instead of the terminal. */
  onLog?: (log: WorkerdStructuredLog) => void;
};

export type ServedBuild = { url: URL; miniflare: Miniflare; close(): Promise<void> };

/**
 * Serves the production build (`npm run build`) in workerd on 127.0.0.1, exactly as configured for
 * deployment (assets, bindings, compatibility settings), with no development proxy in front.
 */
export async function serveBuild({
  port = 0,
  vars = {},
  onLog,
}: ServeBuildOptions = {}): Promise<ServedBuild> {
  // The build is one self-contained ES module, so the config's module rules are not needed.
  const { modulesRules: _unused, ...workerOptions } =
    unstable_getMiniflareWorkerOptions(BUILT_WORKER_CONFIG).workerOptions;
  // wrangler describes workers in Miniflare 4's option shape; Miniflare 5 converts it itself.
  const options = convertV4MiniflareOptions({
    host: "127.0.0.1",
    port,
    workers: [
      {
        ...workerOptions,
        modules: [{ type: "ESModule", path: resolve(BUILT_WORKER_CONFIG, "../index.js") }],
        // wrangler types the bindings as unknown; they are the config's `vars` (a plain record).
        bindings: { ...(workerOptions.bindings as Record<string, unknown> | undefined), ...vars },
      },
    ],
  });
  const miniflare = new Miniflare({
    ...options,
    telemetry: { enabled: false },
    ...(onLog && { handleStructuredLogs: onLog }),
  });
  const url = await miniflare.ready;
  return { url, miniflare, close: () => miniflare.dispose() };
}

/** The variables the test suites run with: the reference failure routes are mounted. */
export const TEST_VARS = { ENABLE_FAILURE_ROUTES: "true" } as const;
