import { execFileSync } from "node:child_process";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";

const DEPLOY_POINTER = resolve(import.meta.dirname, "../.wrangler/deploy/config.json");
/** The route types React Router generates (`npm run typegen`), which the product's type-check reads. */
const ROUTE_TYPES = resolve(import.meta.dirname, "../.react-router");

/**
 * Runs React Router's build (`react-router build`, as `npm run build` runs it) with `env` (another BUILD_DIRECTORY, APP_DIRECTORY or WRANGLER_CONFIG) for a
 * build that is not the one to deploy: the benchmarks' baseline, the platform's test fixture. The Vite plugin
 * points wrangler's deploy config at the last build; that pointer is put back so `wrangler deploy` still ships
 * the product. React Router's build writes the route types of the app it builds in place of the product's
 * (.react-router/types, another APP_DIRECTORY's only): those are put back too, so `tsc -b` still passes.
 */
export async function buildAside(env: Record<string, string>, { quiet = false } = {}): Promise<void> {
  const pointer = await readFile(DEPLOY_POINTER, "utf8").catch(() => undefined);
  const keptTypes = `${ROUTE_TYPES}-kept-${process.pid}`;
  const typesKept = await cp(ROUTE_TYPES, keptTypes, { recursive: true }).then(
    () => true,
    () => false,
  );
  try {
    // As `npm run build` runs React Router's build (scripts/react-router.ts).
    execFileSync(process.execPath, [resolve(import.meta.dirname, "react-router.ts"), "build"], {
      stdio: quiet ? "ignore" : ["ignore", "inherit", "inherit"],
      env: { ...process.env, ...env },
    });
  } finally {
    if (pointer === undefined) await rm(DEPLOY_POINTER, { force: true });
    else await writeFile(DEPLOY_POINTER, pointer);
    if (typesKept) {
      await rm(ROUTE_TYPES, { recursive: true, force: true });
      await cp(keptTypes, ROUTE_TYPES, { recursive: true });
      await rm(keptTypes, { recursive: true, force: true });
    }
  }
}
