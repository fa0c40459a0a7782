/**
 * `npm run replace-reference`: the one step that removes the reference product (README, "Replace the reference
 * product") and leaves a one-page product in its place, the platform's template page (packages/edge-platform/
 * template/app), to build your own on. What it removes is the reference's alone, grouped so that this list is
 * all of it:
 *
 * - `app/`: its routes, data, components, styles and texts (replaced by the template's one page);
 * - `migrations/*.sql`: its database's tables (the folder stays: `npm run dev` and `npm run preview` apply it);
 * - `reference/` under `tests/e2e`, `tests/worker`, `tests/unit` and `tests/support`: its own tests, which test
 *   its pages' content and forms.
 *
 * What stays is what any product keeps: the platform (a dependency), the configs, the scripts, the benchmarks and
 * the checks of the build and the local servers that hold for whatever pages the product has.
 *
 * `--dry-run` lists what it would remove. Refuses to run when `app/` is not the reference's (no
 * `app/routes/messages.tsx`), so a product's own pages are never removed by mistake.
 */
import { cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const REPOSITORY = resolve(import.meta.dirname, "..");
const TEMPLATE_APP = join(REPOSITORY, "packages/edge-platform/template/app");

/** The reference's own folders, removed whole. */
export const REFERENCE_FOLDERS = [
  "app",
  "tests/e2e/reference",
  "tests/worker/reference",
  "tests/unit/reference",
  "tests/support/reference",
] as const;

/** A file only the reference has: its presence says `app/` is still the reference's. */
const REFERENCE_MARK = "app/routes/messages.tsx";

/** Every path the step removes, relative to `root`. */
export function referenceFiles(root: string): string[] {
  const migrations = join(root, "migrations");
  const sql = existsSync(migrations)
    ? readdirSync(migrations)
        .filter((file) => file.endsWith(".sql"))
        .map((file) => `migrations/${file}`)
    : [];
  return [...REFERENCE_FOLDERS.filter((folder) => existsSync(join(root, folder))), ...sql];
}

/** Whether `root` still holds the reference product (the step has not run there). */
export function hasReference(root: string): boolean {
  return existsSync(join(root, REFERENCE_MARK));
}

export function replaceReference(root: string): string[] {
  if (!hasReference(root))
    throw new Error(
      `${join(root, "app")} is not the reference product (no ${REFERENCE_MARK}): nothing removed`,
    );
  const removed = referenceFiles(root);
  for (const path of removed) rmSync(join(root, path), { recursive: true, force: true });
  cpSync(TEMPLATE_APP, join(root, "app"), { recursive: true });
  return removed;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { "dry-run": { type: "boolean", default: false } } });
  const root = REPOSITORY;
  if (values["dry-run"]) {
    console.log(`Would remove:\n${referenceFiles(root).join("\n")}`);
  } else {
    const removed = replaceReference(root);
    console.log(`Removed the reference product:\n${removed.map((path) => `  ${path}`).join("\n")}`);
    console.log(
      "app/ is now one page (app/routes/home.tsx). Next: add your pages (README, 'Add a page'), then npm test.",
    );
  }
}
