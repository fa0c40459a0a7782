const FNV_OFFSET_BASIS = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * A short opaque id for a server error (packages/edge-platform/docs/contract.md C1 "Digest: <id>"): FNV-1a 64 of its name, message and
 * the place it was thrown (its stack's first frame), so the same error thrown again gets the same id (it
 * groups) while nothing of the error itself can be read back from it. Only the first frame: what called it
 * differs between a traced request and an untraced one (Sentry's wrappers sit between React Router and the
 * route) and between a document and its page data, and one bug must show under one digest. Pure and
 * synchronous so the renderer, the log line and the error report can all call it.
 */
export function errorDigest(error: unknown): string {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(describeForDigest(error))) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash.toString(36).padStart(13, "0");
}

function describeForDigest(error: unknown): string {
  if (error instanceof Error) return `${error.name}\n${error.message}\n${throwSite(error.stack ?? "")}`;
  try {
    return `non-error\n${typeof error}\n${JSON.stringify(error) ?? String(error)}`;
  } catch {
    return `non-error\n${typeof error}\n${String(error)}`;
  }
}

/** A V8 stack's first frame (`at loader (app.js:1:2)`); the whole stack when it has none. */
function throwSite(stack: string): string {
  for (const line of stack.split("\n")) {
    const frame = line.trim();
    if (frame.startsWith("at ")) return frame;
  }
  return stack;
}
