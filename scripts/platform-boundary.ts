import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/**
 * `npm run test:boundary` (what `npm test` runs for the platform): the platform's whole suite
 * (`npm run test:platform`) in a copy of this repository whose product is replaced by a one-page app. It passes
 * there unchanged, or the platform depends on something of the product's. The copy shares this checkout's
 * installed packages, except the platform's own workspace link, which points at the copy's package. The copy is
 * removed when the suite passes and kept (its path printed) when it fails.
 */
const REPOSITORY = resolve(import.meta.dirname, "..");

/** The one-page product: the app of the platform's product template (npm run create-product). */
const ONE_PAGE_APP = join(REPOSITORY, "packages/edge-platform/template/app");

const copy = mkdtempSync(join(tmpdir(), "platform-boundary-"));
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: REPOSITORY, encoding: "utf8" })
  .split("\0")
  .filter(Boolean);
for (const file of tracked) {
  // The product's app and its tests stay behind: the copy's product is the one page below.
  if (file.startsWith("app/") || file.startsWith("tests/")) continue;
  mkdirSync(dirname(join(copy, file)), { recursive: true });
  cpSync(join(REPOSITORY, file), join(copy, file));
}
cpSync(ONE_PAGE_APP, join(copy, "app"), { recursive: true });
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

console.log(`The platform's suite in a copy whose product is one page: ${copy}`);
const run = spawnSync("npm", ["run", "test:platform"], { cwd: copy, stdio: "inherit" });
if (run.status === 0) rmSync(copy, { recursive: true, force: true });
else console.error(`The platform's suite failed in the copy, kept at ${copy}`);
process.exit(run.status ?? 1);
