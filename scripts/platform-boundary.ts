import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/**
 * `npm run test:boundary` (what `npm test` runs for the platform): in a copy of this repository, the documented
 * step that replaces the reference product with one page (`npm run replace-reference`), then the product's
 * type-check and lint there (what stays behind still compiles), then the platform's whole suite
 * (`npm run test:platform`). It passes there unchanged, or the platform depends on something of the reference's.
 * The copy shares this checkout's installed packages, except the platform's own workspace link, which points at
 * the copy's package. The copy is removed when it passes and kept (its path printed) when it fails.
 */
const REPOSITORY = resolve(import.meta.dirname, "..");

const copy = mkdtempSync(join(tmpdir(), "platform-boundary-"));
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: REPOSITORY, encoding: "utf8" })
  .split("\0")
  .filter(Boolean);
for (const file of tracked) {
  mkdirSync(dirname(join(copy, file)), { recursive: true });
  cpSync(join(REPOSITORY, file), join(copy, file));
}
mkdirSync(join(copy, "node_modules"));
for (const entry of readdirSync(join(REPOSITORY, "node_modules"))) {
  // The tools' caches and temporary files (.vite, .vite-temp, .cache) stay the checkout's own: its suites run
  // beside this one (scripts/test-all.ts).
  if (entry.startsWith(".") && entry !== ".bin") continue;
  const target =
    entry === "edge-platform"
      ? join(copy, "packages/edge-platform")
      : join(REPOSITORY, "node_modules", entry);
  symlinkSync(target, join(copy, "node_modules", entry));
}

console.log(`The reference replaced by one page, in a copy: ${copy}`);
let status: number | null = 0;
for (const script of ["replace-reference", "typecheck", "lint", "test:platform"]) {
  console.log(`\n── ${script} (in the copy) ──`);
  const start = performance.now();
  status = spawnSync("npm", ["run", script], { cwd: copy, stdio: "inherit" }).status;
  console.log(`── ${script} (in the copy): ${((performance.now() - start) / 1000).toFixed(0)} s ──`);
  if (status !== 0) break;
}
if (status === 0) rmSync(copy, { recursive: true, force: true });
else console.error(`Failed in the copy, kept at ${copy}`);
process.exit(status ?? 1);
