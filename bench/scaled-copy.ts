import { spawn } from "node:child_process";
import {
  appendFile,
  cp,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const REPOSITORY = resolve(import.meta.dirname, "..");

/** What a build of the product needs; tests, benchmarks, docs and earlier builds stay behind. */
const PRODUCT_FILES = [
  "app",
  "workers",
  "public",
  "migrations",
  "scripts",
  "package.json",
  "react-router.config.ts",
  "vite.config.ts",
  "wrangler.toml",
  "tsconfig.json",
  "tsconfig.cloudflare.json",
  "tsconfig.node.json",
];

/** The generated pages' paths: `/scale/1` ... `/scale/N`, one route (`scale/:page`). */
export const scaledPagePath = (page: number) => `/scale/${page}`;

export type ScaledCopy = {
  directory: string;
  /** Every static page of the copy: the product's own, then the generated ones. */
  staticPages: string[];
  remove(): Promise<void>;
};

/**
 * A temporary copy of the product with `pageCount` more static pages of one new route, each with its own
 * text and loader data (so each page has its own inline data script and script hashes). The copy shares
 * this checkout's node_modules. Used by `npm run bench:scale` (the platform's test of static pages at scale
 * runs on its fixture: packages/edge-platform/tests/platform/static-pages-at-scale.test.ts). `locales` replaces the product's declared languages (the default first): each
 * one more is a copy of every page to build.
 */
export async function createScaledCopy(
  pageCount: number,
  { locales }: { locales?: readonly string[] } = {},
): Promise<ScaledCopy> {
  const directory = await mkdtemp(join(tmpdir(), `edge-app-scale-${pageCount}-`));
  for (const file of PRODUCT_FILES)
    await cp(join(REPOSITORY, file), join(directory, file), { recursive: true });
  await symlink(join(REPOSITORY, "node_modules"), join(directory, "node_modules"), "dir");
  await writeFile(join(directory, "app/routes/scale-page.tsx"), SCALE_PAGE_MODULE);
  // The product's routes, whatever their file looks like (the template's is one line), and the generated pages' route.
  await rename(join(directory, "app/routes.ts"), join(directory, "app/product-routes.ts"));
  await writeFile(
    join(directory, "app/routes.ts"),
    'import { type RouteConfig, route } from "@react-router/dev/routes";\nimport productRoutes from "./product-routes.ts";\n\n' +
      'export default [...productRoutes, route("scale/:page", "routes/scale-page.tsx")] satisfies RouteConfig;\n',
  );
  await replaceOnce(
    join(directory, "app/product.config.ts"),
    "export const STATIC_PAGES: readonly string[] = [",
    `export const STATIC_PAGES: readonly string[] = [\n  ...Array.from({ length: ${pageCount} }, (_, n) => \`/scale/\${n + 1}\`),`,
  );
  if (locales) {
    // The product's languages, and its platform texts for those only (the build refuses texts for others).
    const config = join(directory, "app/product.config.ts");
    await replaceOnce(
      config,
      /export const LOCALES: readonly string\[\] = \[[^\]]*\];/,
      `export const LOCALES: readonly string[] = ${JSON.stringify(locales)};`,
    );
    await replaceOnce(config, "export const PLATFORM_TEXTS:", "const EVERY_PLATFORM_TEXT:");
    await appendFile(
      config,
      "\nexport const PLATFORM_TEXTS = Object.fromEntries(\n" +
        "  Object.entries(EVERY_PLATFORM_TEXT).filter(([locale]) => LOCALES.includes(locale)),\n);\n",
    );
  }
  const { STATIC_PAGES } = (await import(join(REPOSITORY, "app/product.config.ts"))) as {
    STATIC_PAGES: readonly string[];
  };
  return {
    directory,
    staticPages: [...STATIC_PAGES, ...Array.from({ length: pageCount }, (_, n) => scaledPagePath(n + 1))],
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}

export type BuildTimings = {
  /** Start to the first pre-rendered file: the client and Worker bundles (Vite). */
  bundleMs: number;
  /** First to last pre-rendered file. */
  prerenderMs: number;
  /** Last pre-rendered file to exit: the `_headers` step and the deploy config. */
  finishMs: number;
  totalMs: number;
  /** CPU time (user + system) of the build and every process it ran (workerd included). */
  cpuMs: number;
};

/**
 * React Router's build in the copy, as `npm run build` runs it (scripts/react-router.ts); fails with the build's output. React
 * Router's pre-renderer gives each request 10 s and no retry; on a loaded machine the first request to a
 * cold preview server can take longer, so a build that failed that way is run once more (and says so).
 */
export async function buildCopy(directory: string, { nice = false } = {}): Promise<BuildTimings> {
  try {
    return await buildOnce(directory, nice);
  } catch (error) {
    if (!String(error).includes("The operation was aborted due to timeout")) throw error;
    console.log(`  pre-render request timed out (React Router's 10 s); building ${directory} again`);
    return await buildOnce(directory, nice);
  }
}

async function buildOnce(directory: string, nice: boolean): Promise<BuildTimings> {
  const start = performance.now();
  let firstPrerender: number | undefined;
  let lastPrerender: number | undefined;
  const output: string[] = [];
  // The shell's `times` prints the CPU time of the processes it waited for, their descendants included.
  const build = `${nice ? "nice -n 10 " : ""}node scripts/react-router.ts build; status=$?; times; exit $status`;
  // NODE_ENV as `npm run build` has it: vitest sets "test", which would make Vite build for development.
  const { NODE_ENV: _unused, ...env } = process.env;
  const child = spawn("sh", ["-c", build], { cwd: directory, env: { ...env, NO_COLOR: "1" } });
  const onOutput = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    if (text.includes("Prerender (")) {
      firstPrerender ??= performance.now();
      lastPrerender = performance.now();
    }
    output.push(text);
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout.on("data", onOutput);
  child.stderr.on("data", onOutput);
  const code = await new Promise<number | null>((done) => child.on("close", done));
  const end = performance.now();
  if (code !== 0) throw new Error(`The build of ${directory} failed (exit ${code}):\n${output.join("")}`);
  const first = firstPrerender ?? end;
  const last = lastPrerender ?? end;
  // `times`: the shell's own user and system time, then its children's (`0m12.3s 0m4.5s`).
  const [user = 0, system = 0] = [
    ...output
      .slice(-5)
      .join("")
      .matchAll(/(\d+)m([\d.]+)s/g),
  ]
    .slice(-2)
    .map(([, minutes = "0", seconds = "0"]) => (Number(minutes) * 60 + Number(seconds)) * 1000);
  return {
    bundleMs: first - start,
    prerenderMs: last - first,
    finishMs: end - last,
    totalMs: end - start,
    cpuMs: user + system,
  };
}

/** Total bytes and number of files under a directory. */
export async function directorySize(directory: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
    files++;
  }
  return { bytes, files };
}

async function replaceOnce(file: string, search: string | RegExp, replacement: string): Promise<void> {
  const text = await readFile(file, "utf8");
  const found =
    typeof search === "string" ? text.split(search).length - 1 : text.match(new RegExp(search, "g"))?.length;
  if (found !== 1) throw new Error(`${file} no longer contains ${search} exactly once`);
  await writeFile(file, text.replace(search, replacement));
}

/** A static page like a product's: its own title, text and loader data. */
const SCALE_PAGE_MODULE = `import { Link } from "react-router";

type LoaderArgs = { params: { page?: string } };
type Props = { loaderData: { page: number; renderedAt: string } };

export function meta({ params }: LoaderArgs) {
  return [{ title: \`Page \${params.page} · Edge app\` }];
}

// Runs once per page, at build time (a generated static page: bench/scaled-copy.ts).
export function loader({ params }: LoaderArgs) {
  return { page: Number(params.page), renderedAt: new Date().toISOString() };
}

export default function ScalePage({ loaderData }: Props) {
  const { page } = loaderData;
  return (
    <>
      <h1>Page {page}</h1>
      <p>
        Generated static page number {page}, rendered at <time dateTime={loaderData.renderedAt}>{loaderData.renderedAt}</time>.
      </p>
      <p>
        <Link to={\`/scale/\${page + 1}\`}>Next page</Link> · <Link to="/about">About</Link>
      </p>
    </>
  );
}
`;
