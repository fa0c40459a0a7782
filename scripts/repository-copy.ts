import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const REPOSITORY = resolve(import.meta.dirname, "..");

/**
 * A copy of this repository's working tree (or `root`'s: a git repository with a node_modules folder) in a new
 * temporary folder named `prefix`-..., sharing the installed packages (each linked), except the platform's own
 * workspace link, which points at the copy's package. The files are git's, as they are on disk: tracked ones, and
 * new ones not yet added that git does not ignore (a page just written); a tracked file deleted and not yet
 * committed (after `npm run replace-reference`) is left out. What runs there writes nothing into the checkout,
 * where other suites run at the same time (scripts/test-all.ts).
 */
export function copyRepository(prefix: string, root: string = REPOSITORY): string {
  const copy = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  // A directory among them is a link git sees as a file (a worktree's `node_modules` link): not the repository's.
  const isFile = (file: string) => statSync(join(root, file), { throwIfNoEntry: false })?.isFile() === true;
  const files = new Set(listed.split("\0").filter((file) => file && isFile(file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  mkdirSync(join(copy, "node_modules"));
  for (const entry of readdirSync(join(root, "node_modules"))) {
    // The tools' caches and temporary files (.vite, .vite-temp, .cache) stay the checkout's own.
    if (entry.startsWith(".") && entry !== ".bin") continue;
    const target =
      entry === "edge-platform" ? join(copy, "packages/edge-platform") : join(root, "node_modules", entry);
    symlinkSync(target, join(copy, "node_modules", entry));
  }
  return copy;
}
