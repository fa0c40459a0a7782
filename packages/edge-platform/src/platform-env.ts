/**
 * The bindings and variables the platform's Worker reads. The build adds each to the deploy config
 * (vite/platform-worker-config.ts), so a product's wrangler.toml does not declare them and its generated `Env`
 * (`wrangler types`) does not hold them: the platform types its own here.
 */
export interface PlatformEnv {
  /** The client build and the pre-rendered pages (Workers static assets). */
  ASSETS: Fetcher;
  /** Which version of the Worker answers: the release of error reports, part of shared pages' keys. */
  CF_VERSION_METADATA: WorkerVersionMetadata;
  /** Envelopes a client sends through /monitoring. */
  MONITORING_RATE_LIMIT: RateLimit;
  /** A client's writes (actions). */
  WRITE_RATE_LIMIT: RateLimit;
  /** The purges of shared pages a client's writes may ask for. */
  PURGE_RATE_LIMIT: RateLimit;
  ENABLE_FAILURE_ROUTES: string;
  SENTRY_DSN: string;
  SENTRY_ENVIRONMENT: string;
  SENTRY_TRACES_SAMPLE_RATE: string;
  SENTRY_TUNNEL_MAX_BYTES: string;
  SENTRY_TUNNEL_TIMEOUT_MS: string;
  SENTRY_TRACE_PROPAGATION_ORIGINS: string;
  SENTRY_INGEST_TEST_ORIGIN: string;
}

/** What the Worker is handed: the product's own bindings (its generated `Cloudflare.Env`) and the platform's. */
export type WorkerEnv = Cloudflare.Env & PlatformEnv;
