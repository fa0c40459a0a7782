/**
 * A visitor from anywhere, locally: the local server (serve-build.ts) takes the Worker's
 * `request.cf.timezone` and `request.cf.country` from the request headers `x-local-cf-timezone` and
 * `x-local-cf-country` when they hold sane values, so a test (or a person with a browser extension) can be a
 * first visit from Tokyo. Only the local servers read them: the deployed Worker never does (the app reads
 * only `request.cf`), and every `x-local-cf-*` header is taken out before the request reaches the app.
 * Self-contained: the host guard runs this module in workerd, for every request (the app's gateway hands the
 * request's `cf` on to the Workers Cache emulation's fills); under `npm run dev` the Worker itself does, in a
 * development build only (worker/app.ts, `withLocalCf`).
 */

/** The values given, each only when sane; the app checks the zone again (with Intl). */
export type LocalCf = { timezone?: string; country?: string };

const PREFIX = "x-local-cf-";
const TIMEZONE_HEADER = `${PREFIX}timezone`;
const COUNTRY_HEADER = `${PREFIX}country`;

/** An IANA zone's spelling (`Asia/Tokyo`, `Etc/GMT+9`); whether it exists is the app's to check. */
const TIME_ZONE = /^[A-Za-z0-9_+\-/]{1,64}$/;
/** Two ASCII letters (ISO 3166-1 alpha-2, as Cloudflare states a country); upper-cased. */
const COUNTRY = /^[A-Za-z]{2}$/;

/**
 * Takes every `x-local-cf-*` header out of `headers` and returns the sane values they gave, or undefined when
 * they gave none (a header sent twice arrives joined by a comma, which neither value allows). Without a sane
 * zone header the zone is `localTimeZone`, this machine's: a local visitor is where the server is, as the edge
 * would place a visitor (Miniflare's own placeholder says America/Chicago, which would make every local
 * first visit a visitor whose browser must correct the edge's guess).
 */
export function takeLocalCf(headers: Headers, localTimeZone?: string): LocalCf | undefined {
  const timezone = headers.get(TIMEZONE_HEADER);
  const country = headers.get(COUNTRY_HEADER);
  for (const name of [...headers.keys()]) {
    if (name.startsWith(PREFIX)) headers.delete(name);
  }
  const cf: LocalCf = {};
  if (timezone !== null && TIME_ZONE.test(timezone)) cf.timezone = timezone;
  else if (localTimeZone && TIME_ZONE.test(localTimeZone)) cf.timezone = localTimeZone;
  if (country !== null && COUNTRY.test(country)) cf.country = country.toUpperCase();
  return cf.timezone === undefined && cf.country === undefined ? undefined : cf;
}
