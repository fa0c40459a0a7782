import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const REPOSITORY = resolve(import.meta.dirname, "..");

/**
 * A copy of this repository's tracked files in a new temporary folder named `prefix`-..., sharing the checkout's
 * installed packages (each linked), except the platform's own workspace link, which points at the copy's package.
 * What runs there writes nothing into the checkout, where other suites run at the same time (scripts/test-all.ts).
 */
export function copyRepository(prefix: string): string {
  const copy = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: REPOSITORY, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const file of tracked) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(REPOSITORY, file), join(copy, file));
  }
  mkdirSync(join(copy, "node_modules"));
  for (const entry of readdirSync(join(REPOSITORY, "node_modules"))) {
    // The tools' caches and temporary files (.vite, .vite-temp, .cache) stay the checkout's own.
    if (entry.startsWith(".") && entry !== ".bin") continue;
    const target =
      entry === "edge-platform"
        ? join(copy, "packages/edge-platform")
        : join(REPOSITORY, "node_modules", entry);
    symlinkSync(target, join(copy, "node_modules", entry));
  }
  return copy;
}
