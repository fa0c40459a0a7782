import * as v from "valibot";
import { MONITORING_TUNNEL_MAX_BYTES, MONITORING_TUNNEL_TIMEOUT_MS } from "./constants.ts";
import { loopbackOrigin, parseDsn, type SentryIngestDsn } from "./reporting/sentry-dsn.ts";

/**
 * The platform's configuration: the Worker's variables (wrangler.toml `[vars]`, secrets, `.dev.vars`), read
 * and checked in one place, once per isolate (`platformConfig`) and once at build (the platform's Vite
 * plugin checks the variables the build is deployed with). Everything else — the tunnel, both Sentry set-ups, the root loader,
 * the page's CSP, the failure routes — reads this object, never `env` itself. An invalid value is an error
 * that names the variable; nothing falls back silently.
 */
export type PlatformConfig = {
  /** The reference failure routes (/failures/*) answer instead of 404: tests only. */
  failureRoutes: boolean;
  /** Null when reporting is off (no DSN). */
  reporting: ReportingConfig | null;
};

export type ReportingConfig = {
  dsn: string;
  /**
   * Set for a DSN of Sentry's SaaS ingest: the browser reports through the same-origin tunnel (packages/edge-platform/docs/contract.md
   * C7), and only this DSN's envelopes pass it.
   */
  ingest: SentryIngestDsn | undefined;
  /**
   * Set for a self-hosted Sentry: the origin the browser reports to directly (no tunnel), which the page's
   * `connect-src` therefore allows.
   */
  directOrigin: string | undefined;
  environment: string;
  release: string | undefined;
  /** Share of requests traced, 0..1. */
  tracesSampleRate: number;
  /** Tests only: a loopback stand-in for Sentry's ingest host (see loopbackOrigin). */
  ingestTestOrigin: string | undefined;
  /** Origins besides the app's own that outgoing requests carry the trace to (monitoring/trace-propagation.ts). */
  tracePropagationOrigins: readonly string[];
  tunnel: { maxBytes: number; timeoutMs: number };
};

/** The variables the platform reads; every one may be missing or empty, which means its default. */
export type PlatformVariables = Partial<
  Record<
    | "ENABLE_FAILURE_ROUTES"
    | "SENTRY_DSN"
    | "SENTRY_ENVIRONMENT"
    | "SENTRY_TRACES_SAMPLE_RATE"
    | "SENTRY_TUNNEL_MAX_BYTES"
    | "SENTRY_TUNNEL_TIMEOUT_MS"
    | "SENTRY_INGEST_TEST_ORIGIN"
    | "SENTRY_TRACE_PROPAGATION_ORIGINS",
    unknown
  >
> & { CF_VERSION_METADATA?: { id?: string } };

/** Thrown for invalid variables; its message names each one and says what is expected. */
export class PlatformConfigError extends Error {
  override name = "PlatformConfigError";
}

/** An empty or missing variable as undefined, anything else as the text it holds. */
const variable = v.pipe(
  v.optional(v.string("must be a string"), ""),
  v.trim(),
  v.transform((value) => (value === "" ? undefined : value)),
);

function optionalVariable<T>(check: v.GenericSchema<string, T>) {
  return v.pipe(variable, v.optional(check));
}

const booleanFlag = optionalVariable(
  v.pipe(
    v.picklist(["true", "false"], 'must be "true" or "false"'),
    v.transform((value) => value === "true"),
  ),
);

const positiveInteger = optionalVariable(
  v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,8}$/, "must be a whole number from 1 to 999999999"),
    v.transform(Number),
  ),
);

const sampleRate = optionalVariable(
  v.pipe(
    v.string(),
    v.regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, "must be a number from 0 to 1"),
    v.transform(Number),
  ),
);

/** Sentry's own rules for an environment name: no spaces or slashes, at most 64 characters. */
const environment = optionalVariable(
  v.pipe(v.string(), v.regex(/^[^\s/]{1,64}$/, "must be 1 to 64 characters with no spaces or slashes")),
);

const ingestTestOrigin = optionalVariable(
  v.pipe(
    v.string(),
    v.check((value) => loopbackOrigin(value) !== undefined, "must be a loopback http origin (tests only)"),
    v.transform((value) => loopbackOrigin(value) as string),
  ),
);

/** Exact origins, comma-separated: `https://api.example.com`; plain http only on loopback. */
const origins = optionalVariable(
  v.pipe(
    v.string(),
    v.transform((value) => value.split(",").map((origin) => origin.trim())),
    v.check(
      (list) => list.every(isExactOrigin),
      "must be origins separated by commas (https://host[:port], http only on loopback), with no path",
    ),
  ),
);

function isExactOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    const secure = url.protocol === "https:" || loopbackOrigin(value) !== undefined;
    // A host name or an IP literal; the URL parser also takes `*`, which is no origin of anyone's.
    const host = /^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname);
    return secure && host && url.origin === value;
  } catch {
    return false;
  }
}

const dsn = optionalVariable(
  v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const parsed = parseDsn(dataset.value);
      if (typeof parsed === "string") {
        addIssue({ message: parsed });
        return NEVER;
      }
      return parsed;
    }),
  ),
);

const VariablesSchema = v.object({
  ENABLE_FAILURE_ROUTES: booleanFlag,
  SENTRY_DSN: dsn,
  SENTRY_ENVIRONMENT: environment,
  SENTRY_TRACES_SAMPLE_RATE: sampleRate,
  SENTRY_TUNNEL_MAX_BYTES: positiveInteger,
  SENTRY_TUNNEL_TIMEOUT_MS: positiveInteger,
  SENTRY_INGEST_TEST_ORIGIN: ingestTestOrigin,
  SENTRY_TRACE_PROPAGATION_ORIGINS: origins,
});

/** Parses and checks the variables; throws PlatformConfigError naming every invalid one. */
export function parsePlatformConfig(variables: PlatformVariables): PlatformConfig {
  const result = v.safeParse(VariablesSchema, variables);
  if (!result.success) {
    const problems = result.issues.map((issue) => {
      const name = v.getDotPath(issue) ?? "configuration";
      return `${name} ${issue.message} (it is ${JSON.stringify(shorten(issue.input))})`;
    });
    throw new PlatformConfigError(`Invalid configuration: ${problems.join("; ")}.`);
  }
  const vars = result.output;
  const release = variables.CF_VERSION_METADATA?.id || undefined;
  return {
    failureRoutes: vars.ENABLE_FAILURE_ROUTES ?? false,
    reporting: vars.SENTRY_DSN
      ? {
          ...vars.SENTRY_DSN,
          environment: vars.SENTRY_ENVIRONMENT ?? "production",
          release,
          tracesSampleRate: vars.SENTRY_TRACES_SAMPLE_RATE ?? 0,
          ingestTestOrigin: vars.SENTRY_INGEST_TEST_ORIGIN,
          tracePropagationOrigins: vars.SENTRY_TRACE_PROPAGATION_ORIGINS ?? [],
          tunnel: {
            maxBytes: vars.SENTRY_TUNNEL_MAX_BYTES ?? MONITORING_TUNNEL_MAX_BYTES,
            timeoutMs: vars.SENTRY_TUNNEL_TIMEOUT_MS ?? MONITORING_TUNNEL_TIMEOUT_MS,
          },
        }
      : null,
  };
}

/** Per isolate: `env` is one object for all of an isolate's requests. */
const configs = new WeakMap<object, PlatformConfig>();

/** The Worker's configuration, parsed on first use and kept for the isolate's life. */
export function platformConfig(env: PlatformVariables): PlatformConfig {
  let config = configs.get(env);
  if (!config) {
    config = parsePlatformConfig(env);
    configs.set(env, config);
  }
  return config;
}

function shorten(value: unknown): unknown {
  return typeof value === "string" && value.length > 80 ? `${value.slice(0, 80)}…` : value;
}
