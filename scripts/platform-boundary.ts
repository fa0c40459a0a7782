import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { freePort } from "edge-platform/testing";

/**
 * `npm run test:boundary` (what `npm test` runs for a product without the reference): in a copy of this
 * repository, the documented step that replaces the reference product with one page (`npm run replace-reference`),
 * one page added as a team adds its first (`addPage`), then the product's suites there as `npm test` runs them
 * (type-check, lint, build, unit, Worker, Chromium, deploy dry run: whatever stays behind holds on whatever pages
 * a product has), and beside them the platform's whole suite (`npm run test:platform`, which tests `npm run dev`
 * on its fixture), which needs nothing of the reference's. The reference's own tests and the script tests run in the checkout.
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

/** A second page, `/about`, pre-rendered: its route module, its route and its place in STATIC_PAGES. */
function addPage(root: string): void {
  writeFileSync(
    join(root, "app/routes/about.tsx"),
    `import type { MetaFunction } from "react-router";

export const meta: MetaFunction = () => [
  { title: "About · My product" },
  { name: "description", content: "What this product is, in a sentence or two." },
];

export default function About() {
  return (
    <>
      <h1>About</h1>
      <p>A second page, added after the reference product was replaced.</p>
    </>
  );
}
`,
  );
  const edit = (file: string, from: string, to: string) => {
    const text = readFileSync(join(root, file), "utf8");
    if (!text.includes(from)) throw new Error(`${file} no longer holds ${from}: update addPage`);
    writeFileSync(join(root, file), text.replace(from, to));
  };
  edit("app/routes.ts", "import { index, type RouteConfig }", "import { index, type RouteConfig, route }");
  edit(
    "app/routes.ts",
    '[index("routes/home.tsx")]',
    '[index("routes/home.tsx"), route("about", "routes/about.tsx")]',
  );
  edit(
    "app/product.config.ts",
    'STATIC_PAGES: readonly string[] = ["/"]',
    'STATIC_PAGES: readonly string[] = ["/", "/about"]',
  );
}

/** The product's suites, as `npm test` names them (scripts/test-all.ts), that hold on any product. */
const PRODUCT_SUITES = ["typecheck", "lint", "build", "test:unit", "test:worker", "test:e2e", "deploy:check"];

// The copy's browser suite serves its build on a port of its own: another checkout's may be running beside it.
const COPY_ENV = { ...process.env, E2E_PORT: String(await freePort()) };

/**
 * Runs a command in the copy; its output is printed whole when it ends, after a line when it starts: the two parts
 * below run side by side, and their lines interleaved were unreadable.
 */
function run(command: string, args: string[]): Promise<number> {
  const name = `${[command, ...args].join(" ")} (in the copy)`;
  console.log(`\n── ${name}: started ──`);
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: copy, stdio: ["ignore", "pipe", "pipe"], env: COPY_ENV });
    let output = "";
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("close", (code, signal) => {
      const seconds = ((performance.now() - start) / 1000).toFixed(0);
      console.log(`\n── ${name}: ${code === 0 ? "passed" : "FAILED"} in ${seconds} s ──\n${output}`);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on("error", () => resolve(1));
  });
}

async function productSuites(): Promise<number> {
  const replaced = await run("npm", ["run", "replace-reference"]);
  if (replaced !== 0) return replaced;
  addPage(copy);
  console.log("Added a page: app/routes/about.tsx, /about in app/routes.ts and STATIC_PAGES.");
  return run("npm", ["test", "--", ...PRODUCT_SUITES]);
}

console.log(`The reference replaced by one page, in a copy: ${copy}`);
// The two parts side by side: they share no file (the platform's works in packages/edge-platform, which the step
// leaves alone) and no port, and the product's (one server, type-checks and builds on one core each) leaves much of
// the machine idle. One after the other they took 147 s and 413 s (2026-11-28, with the dev suite in the product's).
// The platform's runs whatever the product's did: it needs nothing of the product's.
const [product, platform] = await Promise.all([productSuites(), run("npm", ["run", "test:platform"])]);
console.log(
  `\nIn the copy: the one-page product's suites ${product === 0 ? "passed" : "FAILED"}, the platform's ${platform === 0 ? "passed" : "FAILED"}.`,
);
if (product === 0 && platform === 0) rmSync(copy, { recursive: true, force: true });
else console.error(`Failed in the copy, kept at ${copy}`);
process.exit(product === 0 && platform === 0 ? 0 : 1);
