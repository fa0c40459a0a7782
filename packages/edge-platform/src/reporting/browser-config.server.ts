import type { ReportingConfig } from "../config.server";
import { MONITORING_TUNNEL_PATH } from "../constants";
import { tunnelQuery } from "./sentry-dsn";

/** What the browser SDK is configured with. Public by nature: no secret goes in here. */
export type BrowserReportingConfig = {
  dsn: string;
  /** Same-origin tunnel (packages/edge-platform/docs/contract.md C7); undefined for a self-hosted DSN, reported to directly. */
  tunnel: string | undefined;
  environment: string;
  release: string | undefined;
  tracesSampleRate: number;
  /** Origins besides the page's own that the browser's requests carry the trace to. */
  tracePropagationOrigins: readonly string[];
};

/** Per isolate: the configuration is one object for all of an isolate's requests. */
const configs = new WeakMap<ReportingConfig, BrowserReportingConfig>();

/** Null when reporting is off (no DSN): the browser then loads no reporting code at all. */
export function browserReportingConfig(reporting: ReportingConfig | null): BrowserReportingConfig | null {
  if (!reporting) return null;
  let config = configs.get(reporting);
  if (!config) {
    config = {
      dsn: reporting.dsn,
      tunnel: reporting.ingest ? `${MONITORING_TUNNEL_PATH}?${tunnelQuery(reporting.ingest)}` : undefined,
      environment: reporting.environment,
      release: reporting.release,
      tracesSampleRate: reporting.tracesSampleRate,
      tracePropagationOrigins: reporting.tracePropagationOrigins,
    };
    configs.set(reporting, config);
  }
  return config;
}
