import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

/** The one-page product: a root with the platform's document and error page, one static page. */
const ONE_PAGE_PRODUCT: Record<string, string> = {
  "app/routes.ts": `import { index, type RouteConfig } from "@react-router/dev/routes";

export default [index("routes/home.tsx")] satisfies RouteConfig;
`,
  "app/routes/home.tsx": `export default function Home() {
  return <h1>One page</h1>;
}
`,
  "app/product.config.ts": `export const STATIC_PAGES: readonly string[] = ["/"];
export const EXTRA_ACTION_ORIGINS: readonly string[] = [];
`,
  "app/root.tsx": `import { ErrorPage, errorMeta, PlatformDocument } from "edge-platform/react";
import { platformRootData } from "edge-platform/server";
import type { ReactNode } from "react";
import { type LoaderFunctionArgs, type MetaFunction, Outlet, useRouteError, useRouteLoaderData } from "react-router";

export const meta: MetaFunction = ({ error }) => (error ? errorMeta(error) : [{ title: "One page" }]);

export function loader({ context }: LoaderFunctionArgs) {
  return platformRootData(context);
}

export function Layout({ children }: { children: ReactNode }) {
  const reporting = useRouteLoaderData<typeof loader>("root")?.reporting ?? null;
  return (
    <PlatformDocument lang="en" reporting={reporting}>
      {children}
    </PlatformDocument>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
`,
  "app/entry.client.tsx": `import "edge-platform/entry.client";\n`,
  "app/entry.server.tsx": `export { default, handleError, instrumentations, streamTimeout } from "edge-platform/entry.server";\n`,
};

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
for (const [file, text] of Object.entries(ONE_PAGE_PRODUCT)) {
  mkdirSync(dirname(join(copy, file)), { recursive: true });
  writeFileSync(join(copy, file), text);
}
mkdirSync(join(copy, "node_modules"));
for (const entry of readdirSync(join(REPOSITORY, "node_modules"))) {
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
