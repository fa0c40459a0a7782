import { spawn } from "node:child_process";
import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");

export type ScriptRun = { code: number | null; output: string; timedOut: boolean };

export type RunOptions = {
  /** Killed (with everything it started) after this long; the run then reports `timedOut`. */
  timeoutMs: number;
  env?: Record<string, string>;
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
    env: { ...developerEnvironment(), ...env },
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

/** Runs a shell command to its end (or its time-out). */
export function runCommand(command: string, options: RunOptions): Promise<ScriptRun> {
  return startCommand(command, options).exited;
}
