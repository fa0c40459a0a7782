/**
 * One answer's headers from several helpers' (a D1 session's bookmark cookie, a route's own caching, a
 * purge's), as `redirect(to, { headers: combineHeaders(a, b) })` takes them: every `Set-Cookie` is kept (a
 * `Headers` object joins two by `set` or a spread into one cookie), other headers are appended in order, so
 * a list such as `Vary` keeps every value. Undefined sources are skipped.
 */
export function combineHeaders(...sources: (HeadersInit | null | undefined)[]): Headers {
  const combined = new Headers();
  for (const source of sources) {
    if (!source) continue;
    const headers = new Headers(source);
    for (const cookie of headers.getSetCookie()) combined.append("Set-Cookie", cookie);
    headers.forEach((value, name) => {
      if (name !== "set-cookie") combined.append(name, value);
    });
  }
  return combined;
}
