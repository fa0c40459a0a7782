import { spawn } from "node:child_process";
import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");

export type ScriptRun = { code: number | null; output: string; timedOut: boolean };

export type RunOptions = {
  /** Killed (with everything it started) after this long; the run then reports `timedOut`. */
  timeoutMs: number;
  /** Variables set for the command (over the developer's environment); `undefined` unsets one. */
  env?: Record<string, string | undefined>;
  /** Where to run; the repository's root by default. */
  cwd?: string;
  /**
   * "terminal": in a pseudo-terminal (util-linux `script`) whose keyboard nobody touches, as a developer
   * runs it; a question would wait there for ever. "closed": with stdin closed, as CI and editors run it.
   */
  stdin: "terminal" | "closed";
};

export type RunningCommand = {
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  exited: Promise<ScriptRun>;
  /** Ends it and everything it started. */
  stop(): Promise<ScriptRun>;
};

/** Starts a shell command, bounded in time, with its output captured. */
export function startCommand(
  command: string,
  { timeoutMs, env = {}, cwd = ROOT, stdin }: RunOptions,
): RunningCommand {
  const [file, args] =
    stdin === "terminal" ? ["script", ["-qec", command, "/dev/null"]] : ["sh", ["-c", command]];
  const child = spawn(file, args, {
    cwd,
    // Its own process group, so ending it ends npm, wrangler and workerd together.
    detached: true,
    stdio: [stdin === "terminal" ? "pipe" : "ignore", "pipe", "pipe"],
    env: environmentWith(env),
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  let timedOut = false;
  const kill = () => {
    if (child.pid && child.exitCode === null && child.signalCode === null)
      process.kill(-child.pid, "SIGKILL");
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  const exited = new Promise<ScriptRun>((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output, timedOut });
    });
  });
  return {
    output: () => output,
    exited,
    stop() {
      kill();
      return exited;
    },
  };
}

/**
 * A developer's shell rather than the test runner's: no NODE_ENV=test or VITEST* variables (a build run
 * with NODE_ENV=test is a different build), and CI=false, so ci-info (wrangler's CI detection) answers
 * "not CI" even where the suite runs in CI.
 */
function developerEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: "false", NO_COLOR: "1" };
  for (const name of Object.keys(env)) {
    if (name === "NODE_ENV" || name.startsWith("VITEST") || name === "TEST") delete env[name];
  }
  return env;
}

/** The developer's environment with `env` over it, a variable given as `undefined` removed. */
function environmentWith(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const result = developerEnvironment();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete result[name];
    else result[name] = value;
  }
  return result;
}

/**
 * What the commands a newcomer runs first (`npm run dev`, `build`, `start`) must never print: warnings
 * nobody working on the product can act on, each removed where it came from.
 */
export const WARNINGS_NOBODY_CAN_ACT_ON: readonly RegExp[] = [
  // Vite 8 on React Router 7's `envFile: false` (packages/edge-platform/src/vite/react-router-env-dir.ts).
  /`envFile` option is deprecated/,
  /deprecated/i,
  // Rolldown on a Vite plugin's change without a map (packages/edge-platform/src/vite/source-maps-outside-assets.ts).
  /SOURCEMAP_BROKEN|Sourcemap is likely to be incorrect/,
  // React Router on public browser maps, which the platform's never are (the same plugin).
  /Source maps are enabled in production/,
  // Miniflare's download of Cloudflare's `request.cf` sample, offline (packages/edge-platform/src/vite/local-servers.ts).
  /Unable to fetch the `Request\.cf` object/,
];

/** The lines of `output` that match one of WARNINGS_NOBODY_CAN_ACT_ON. */
export function warningsNobodyCanActOn(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => WARNINGS_NOBODY_CAN_ACT_ON.some((pattern) => pattern.test(line)));
}

/** Runs a shell command to its end (or its time-out). */
export function runCommand(command: string, options: RunOptions): Promise<ScriptRun> {
  return startCommand(command, options).exited;
}
