/**
 * A pure function's results, remembered by their key, at most `limit` of them (the oldest forgotten first):
 * `Intl` objects cost 5-130 µs to make and nothing to reuse, and the Worker makes the same few on every
 * request (a zone's check, a page's date format). Only for functions whose result depends on the key alone.
 */
export function memoize<Result>(limit: number, compute: (key: string) => Result): (key: string) => Result {
  const remembered = new Map<string, Result>();
  return (key) => {
    if (remembered.has(key)) return remembered.get(key) as Result;
    const result = compute(key);
    if (remembered.size >= limit) {
      const oldest = remembered.keys().next().value;
      if (oldest !== undefined) remembered.delete(oldest);
    }
    remembered.set(key, result);
    return result;
  };
}
