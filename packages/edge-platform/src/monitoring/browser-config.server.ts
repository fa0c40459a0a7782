import type { MonitoringConfig } from "../config.server";
import { MONITORING_TUNNEL_PATH } from "../constants";
import { tunnelQuery } from "./sentry-dsn";

/** What the browser SDK is configured with. Public by nature: no secret goes in here. */
export type BrowserMonitoringConfig = {
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
const configs = new WeakMap<MonitoringConfig, BrowserMonitoringConfig>();

/** Null when reporting is off (no DSN): the browser then loads no monitoring code at all. */
export function browserMonitoringConfig(monitoring: MonitoringConfig | null): BrowserMonitoringConfig | null {
  if (!monitoring) return null;
  let config = configs.get(monitoring);
  if (!config) {
    config = {
      dsn: monitoring.dsn,
      tunnel: monitoring.ingest ? `${MONITORING_TUNNEL_PATH}?${tunnelQuery(monitoring.ingest)}` : undefined,
      environment: monitoring.environment,
      release: monitoring.release,
      tracesSampleRate: monitoring.tracesSampleRate,
      tracePropagationOrigins: monitoring.tracePropagationOrigins,
    };
    configs.set(monitoring, config);
  }
  return config;
}
