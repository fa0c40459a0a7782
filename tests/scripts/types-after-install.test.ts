import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ROOT } from "./run-script";

// The generated types (`Env` from `wrangler types`, `./+types/<route>` from `react-router typegen`) are not
// committed, so a fresh clone shows false errors in the editor until something generates them: `npm install` /
// `npm ci` run the package's `postinstall`, which must be the very `typegen` that `npm run typecheck` checks the
// project with. What an install then writes is tested where an install runs anyway: in the product that
// create-product.test.ts makes and installs (its types after `npm ci`, compared with its type-check's), with the same
// scripts as this repository's (checked here), and by `bash .ci/run start` on a fresh clone (`bash .ci/run`, the
// tests, installs without it: its type-check generates them). A test of its own here copied the repository and ran
// the install's typegen again: 36 s of `npm test` on a busy machine, for the same scripts this reads.

test("after install the generated types are in place, the same ones the project is type-checked with", async () => {
  for (const manifest of ["package.json", "packages/edge-platform/template/package.json"]) {
    const { scripts } = JSON.parse(await readFile(join(ROOT, manifest), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts.postinstall, manifest).toBe("npm run typegen");
    expect(scripts.typecheck, manifest).toMatch(/^npm run typegen && tsc /);
    expect(scripts.typegen, manifest).toMatch(/wrangler types .*&& .*typegen$/);
  }
});
