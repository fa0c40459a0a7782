/**
 * RFC 9110 (15.5.6): a 405 answer lists the methods its target supports. A product's own refusal says
 * (`data(…, { status: 405, headers: { Allow: "POST" } })`), and so does the platform's for a route without
 * an action (errors/with-error-digests.server.ts). React Router's own 405, for a method it does not handle
 * at all (OPTIONS, PROPFIND), carries none: it gets the methods every page answers. A route with an action
 * takes POST too, which this leaves out: the Worker does not match routes to find out.
 */
export function missingAllowHeader(status: number, headers: Headers): Record<string, string> {
  return status === 405 && !headers.has("Allow") ? { Allow: "GET, HEAD" } : {};
}
