import type { WorkerdStructuredLog } from "miniflare";

/** The reference failure routes exist to be provoked by the tests; the Worker mounts them only for tests. */
const PROVOKED_PATH = /^\/failures\//;

export type PrintedLog = { stream: "stdout" | "stderr"; text: string };

/**
 * How the browser suite's server (`serve.ts --test`) prints a line the Worker logged. A `server_error`
 * from a reference failure route, provoked on purpose, becomes one labelled line on stdout, without its
 * stack (Playwright does not show the web server's stdout); anything else is printed as Miniflare would,
 * so an unexpected error still shows in full (a green run prints no alarming stack traces).
 */
export function printedWorkerLog({ level, message }: WorkerdStructuredLog): PrintedLog {
  const provoked = provokedServerError(message);
  if (provoked) {
    return {
      stream: "stdout",
      text: `expected server_error ${provoked.digest}: ${provoked.method} ${provoked.path} (a reference failure route)`,
    };
  }
  return { stream: level === "error" || level === "warn" ? "stderr" : "stdout", text: message };
}

type ServerErrorLine = { event: "server_error"; digest: string; method: string; path: string };

function provokedServerError(message: string): ServerErrorLine | undefined {
  let line: unknown;
  try {
    line = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof line !== "object" || line === null) return undefined;
  const { event, digest, method, path } = line as Partial<Record<keyof ServerErrorLine, unknown>>;
  if (event !== "server_error" || typeof path !== "string" || !PROVOKED_PATH.test(path)) return undefined;
  return { event, digest: String(digest), method: String(method), path };
}
