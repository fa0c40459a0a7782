import { execFileSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROOT, runCommand } from "./run-script";

// The generated types (`Env` from `wrangler types`, `./+types/<route>` from `react-router
// typegen`) are not committed, so a fresh clone shows false errors in the editor until something generates
// them. `npm install` / `npm ci` run the root package's `postinstall`, which does. What it writes is compared
// with the checkout's generated types, the ones `npm run typecheck` (`npm test`'s first suite) generated and
// checked the project with: a second, cold `tsc -b` of the whole project in the clone cost a minute of the
// suite's time and proved nothing more, and generating them again here 20 s.

let clone: string;

/** The repository's files as a clone has them (no generated types), with the installed packages linked in. */
beforeAll(async () => {
  clone = await mkdtemp(join(tmpdir(), "edge-app-clone-"));
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: ROOT,
  })
    .toString()
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    const present = await stat(join(ROOT, file)).catch(() => undefined);
    if (!present?.isFile()) continue;
    await mkdir(dirname(join(clone, file)), { recursive: true });
    await copyFile(join(ROOT, file), join(clone, file));
  }
  // Each package linked, not node_modules itself: tsc keeps its build state in node_modules/.cache.
  await mkdir(join(clone, "node_modules"));
  for (const entry of await readdir(join(ROOT, "node_modules"))) {
    if (entry !== ".cache")
      await symlink(join(ROOT, "node_modules", entry), join(clone, "node_modules", entry));
  }
});

afterAll(async () => {
  if (clone) await rm(clone, { recursive: true, force: true });
});

test("after install the generated types are in place, the same ones the project is type-checked with", {
  timeout: 300_000,
}, async () => {
  const exists = (path: string) =>
    stat(join(clone, path)).then(
      () => true,
      () => false,
    );
  expect(await exists("workers/worker-configuration.d.ts")).toBe(false);
  expect(await exists(".react-router/types")).toBe(false);

  const install = await runCommand("npm run postinstall", {
    cwd: clone,
    stdin: "closed",
    timeoutMs: 120_000,
  });
  expect(install.code, install.output).toBe(0);
  expect(await exists("workers/worker-configuration.d.ts")).toBe(true);
  expect(await exists(".react-router/types/app/routes/+types/home.ts")).toBe(true);

  const generated = await generatedTypes(clone);
  // The runtime types and at least the root's and one route's.
  expect(Object.keys(generated).length).toBeGreaterThan(2);
  // `npm run dev` in another test of this suite deletes and rewrites the checkout's types as it starts.
  await expect
    .poll(() => generatedTypes(ROOT).catch(() => ({})), { timeout: 30_000, interval: 500 })
    .toEqual(generated);
});

/** Every generated type file under `root`, by path, with its text. */
async function generatedTypes(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {
    "workers/worker-configuration.d.ts": await readFile(
      join(root, "workers/worker-configuration.d.ts"),
      "utf8",
    ),
  };
  const types = join(root, ".react-router/types");
  for (const entry of await readdir(types, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(root.length + 1)] = await readFile(path, "utf8");
  }
  return files;
}
