/**
 * A response with header changes applied: a string sets the header, `null` deletes it.
 *
 * In place when the response's headers may change (a Response the Worker or React Router made), so the body
 * stream and the headers are not copied for every answer: copies per request were a measurable part of the
 * platform's cost per `.data` request (packages/edge-platform/docs/PERFORMANCE.md, "The Worker's throughput"). A copy when they are
 * immutable: Fetch gives `fetch()`'s answers, `Response.redirect()` and the Cache API's matches the
 * "immutable" guard, whose first change throws a TypeError before anything is changed.
 */
export function withHeaderChanges(response: Response, changes: Iterable<[string, string | null]>): Response {
  const list = [...changes];
  try {
    applyHeaderChanges(response.headers, list);
    return response;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const copy = new Response(response.body, response);
    applyHeaderChanges(copy.headers, list);
    return copy;
  }
}

function applyHeaderChanges(headers: Headers, changes: [string, string | null][]): void {
  for (const [name, value] of changes) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
}
