import { captureException, withSentry } from "@sentry/cloudflare";
import { serverSentryOptions, setServerErrorReporter } from "../app/platform/monitoring/server-sentry.server";

/**
 * The app wrapped in Sentry. Imported only when a DSN is configured: merely loading the SDK costs about a
 * fifth of the Worker's throughput on dynamic pages (docs/PERFORMANCE.md), so without a DSN it never loads.
 */
export function withMonitoring(app: ExportedHandler<Env>): ExportedHandler<Env> {
  setServerErrorReporter((error, digest) => {
    captureException(error, { tags: { digest }, level: "error" });
  });
  return withSentry(serverSentryOptions, app);
}
