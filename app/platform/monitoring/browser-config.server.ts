import { MONITORING_TUNNEL_PATH } from "../constants";
import { parseSentryIngestDsn, tunnelQuery } from "./sentry-dsn";
import { sampleRate } from "./server-sentry.server";

/** What the browser SDK is configured with. Public by nature: no secret goes in here. */
export type BrowserMonitoringConfig = {
  dsn: string;
  /** Same-origin tunnel (SPEC C7); undefined for a self-hosted DSN, which the browser reports to directly. */
  tunnel: string | undefined;
  environment: string;
  release: string | undefined;
  tracesSampleRate: number;
};

/** Per isolate: `env` is one object for all of an isolate's requests, and the root loader runs on each. */
const configs = new WeakMap<Env, BrowserMonitoringConfig | null>();

/** Null when reporting is off (no DSN): the browser then loads no monitoring code at all. */
export function browserMonitoringConfig(env: Env): BrowserMonitoringConfig | null {
  let config = configs.get(env);
  if (config === undefined) {
    config = readBrowserMonitoringConfig(env);
    configs.set(env, config);
  }
  return config;
}

function readBrowserMonitoringConfig(env: Env): BrowserMonitoringConfig | null {
  if (!env.SENTRY_DSN) return null;
  const ingestDsn = parseSentryIngestDsn(env.SENTRY_DSN);
  return {
    dsn: env.SENTRY_DSN,
    tunnel: ingestDsn ? `${MONITORING_TUNNEL_PATH}?${tunnelQuery(ingestDsn)}` : undefined,
    environment: env.SENTRY_ENVIRONMENT || "production",
    release: env.CF_VERSION_METADATA?.id || undefined,
    tracesSampleRate: sampleRate(env.SENTRY_TRACES_SAMPLE_RATE),
  };
}
