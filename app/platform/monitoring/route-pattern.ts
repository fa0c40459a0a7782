/**
 * The route pattern of a matched URL (`/items/ams` with `{ id: "ams" }` -> `/items/:id`), so transactions
 * are named by route, not by URL. React Router keeps route paths out of `useMatches()`, so the params are
 * put back where their values stand, scanning from the end (parameters follow the static segments they
 * belong to). A splat (`*`) takes the trailing segments.
 */
export function routePattern(pathname: string, params: Readonly<Record<string, string | undefined>>): string {
  const segments = pathname.split("/").filter(Boolean);
  const splat = params["*"];
  let end = segments.length;
  const pattern: string[] = [];
  if (splat) {
    const splatLength = splat.split("/").filter(Boolean).length;
    end = Math.max(0, segments.length - splatLength);
    pattern.unshift("*");
  }
  const remaining = Object.entries(params).filter(([name, value]) => name !== "*" && value !== undefined);
  for (let index = end - 1; index >= 0; index--) {
    const segment = safeDecode(segments[index] ?? "");
    const match = remaining.findLastIndex(([, value]) => value === segment);
    if (match === -1) {
      pattern.unshift(segments[index] ?? "");
    } else {
      pattern.unshift(`:${remaining[match]?.[0]}`);
      remaining.splice(match, 1);
    }
  }
  return `/${pattern.join("/")}`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
