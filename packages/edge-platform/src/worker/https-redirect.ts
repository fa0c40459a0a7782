import { isLoopbackHostname } from "../http/loopback";

/**
 * A plain-http request to a deployed Worker is sent to https. The zone's "Always Use HTTPS"
 * normally answers first and HSTS keeps browsers on https after one visit; this covers a zone without the
 * setting (a new custom domain) and clients that ignore HSTS. 308 for every method: a 301 lets clients
 * turn a POST into a GET and drop the form, 308 keeps method and body, and for a GET the two behave the
 * same in every browser. Loopback hosts are left alone so local serving keeps working.
 */
export function httpsRedirect(url: URL): Response | undefined {
  if (url.protocol !== "http:" || isLoopbackHostname(url.hostname)) return undefined;
  const target = new URL(url);
  target.protocol = "https:";
  return new Response(null, { status: 308, headers: { Location: target.href } });
}
