import { RATE_LIMIT_PERIODS } from "../build-config";
import type { WorkerEnv } from "../platform-env";
import { clientKey } from "./client-key";

/** The Worker's Rate Limiting bindings (`[[ratelimits]]` in wrangler.toml), by name. */
export type RateLimitName = {
  [Name in keyof WorkerEnv]: WorkerEnv[Name] extends RateLimit ? Name : never;
}[keyof WorkerEnv];

/** The longest period a Rate Limiting binding can have (10 or 60 seconds). */
const LONGEST_PERIOD_SECONDS = 60;

/**
 * How long a client over a binding's limit is told to wait: the binding's period, as the build read it from
 * the deploy configuration (the binding itself does not say). A name the build did not see gets the longest
 * possible period, which never sends a client back too early.
 */
export function retryAfterSeconds(name: string, periods: Readonly<Record<string, number>>): number {
  const period = periods[name];
  return period !== undefined && Number.isInteger(period) && period > 0 ? period : LONGEST_PERIOD_SECONDS;
}

/**
 * Counts one request of its client (clientKey) against the named binding: the seconds to wait when the
 * client is over the limit, undefined when the request may go on.
 */
export async function clientOverLimit(
  env: WorkerEnv,
  name: RateLimitName,
  request: Request,
): Promise<number | undefined> {
  let outcome: RateLimitOutcome;
  try {
    outcome = await env[name].limit({ key: clientKey(request.headers.get("CF-Connecting-IP")) });
  } catch (error) {
    // The limits protect the app; a counter that cannot be reached (or a binding missing from the deploy
    // configuration) must not take every write and report down with it. Loud in the logs instead.
    console.error(
      JSON.stringify({
        event: "rate_limit_unavailable",
        binding: name,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
    );
    return undefined;
  }
  return outcome.success ? undefined : retryAfterSeconds(name, RATE_LIMIT_PERIODS);
}
