import { execFileSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROOT, runCommand } from "./run-script";

// The generated types (`Env` from `wrangler types`, `./+types/<route>` from `react-router
// typegen`) are not committed, so a fresh clone shows false errors in the editor until something generates
// them. `npm install` / `npm ci` run the root package's `postinstall`, which does.

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

test("after install the generated types are in place and the project typechecks", {
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
  expect(await exists(".react-router/types/app/routes/+types/about.ts")).toBe(true);

  const typecheck = await runCommand("npx tsc -b", { cwd: clone, stdin: "closed", timeoutMs: 120_000 });
  expect(typecheck.code, typecheck.output).toBe(0);
});
