import { execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "edge-platform/testing";
import { copyRepository } from "./repository-copy.ts";

/**
 * `npm run test:boundary` (what `npm test` runs for a product without the reference): in a copy of this
 * repository, the documented step that replaces the reference product with one page (`npm run replace-reference`),
 * one page and one migration added as a team adds its first (`addPage`, `addMigration`), then the product's suites
 * there as `npm test` runs them (type-check, lint, build, unit, Worker, Chromium, deploy dry run, the npm scripts:
 * whatever stays behind holds on whatever pages a product has). The step leaves packages/edge-platform as it is,
 * so the platform's own suite (`npm run test:platform`, which tests `npm run dev` on its fixture) is the same there
 * as here: `npm test` runs it once, from the start, in a copy of its own (scripts/test-all.ts). The reference's own
 * tests run in the checkout; the script tests run here only, while the reference is in the checkout (the same
 * scripts, and a migration to apply). The copy is removed when it passes and kept (its path printed) when it fails.
 */
const copy = copyRepository("platform-boundary");

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

/**
 * The product's first table, as a team adds one: a migration `npm run dev` and `npm start` apply to the local
 * database, so the script tests there have one to apply (after the step, `migrations/` is empty).
 */
function addMigration(root: string): void {
  writeFileSync(
    join(root, "migrations/0001_notes.sql"),
    "-- A product's first table.\nCREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL);\n",
  );
}

/**
 * The suites that do not depend on the product, left out in the copy: the platform's own suite (the same there, run
 * once beside) and create-product (a product made from the package's template, the same there).
 */
const NOT_THE_PRODUCTS = ["test:platform:checks", "test:platform:served", "test:create-product"];

/**
 * The suites a bare `npm test` runs in the copy (scripts/test-all.ts --list), but NOT_THE_PRODUCTS: test:boundary is
 * not among them there (nothing left to replace), the script tests are.
 */
function productSuites(): string[] {
  const listed = execFileSync("node", ["scripts/test-all.ts", "--list"], { cwd: copy, encoding: "utf8" });
  const suites = listed.split("\n").filter((script) => script !== "" && !NOT_THE_PRODUCTS.includes(script));
  for (const [script, expected] of [
    ["test:boundary", false],
    ["test:scripts", true],
  ] as const)
    if (suites.includes(script) !== expected)
      throw new Error(
        `a bare npm test in the copy would ${expected ? "not " : ""}run ${script}: ${suites.join(", ")}`,
      );
  return suites;
}

// The copy's browser suite serves its build on a port of its own: another checkout's may be running beside it.
const COPY_ENV = { ...process.env, E2E_PORT: String(await freePort()) };

/** Runs a command in the copy: a line when it starts, then its output whole and its time when it ends. */
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

console.log(`The reference replaced by one page, in a copy: ${copy}`);
const replaced = await run("npm", ["run", "replace-reference"]);
let product = replaced;
if (replaced === 0) {
  addPage(copy);
  addMigration(copy);
  console.log(
    "Added a page (app/routes/about.tsx, /about in app/routes.ts and STATIC_PAGES) and a migration.",
  );
  try {
    product = await run("npm", ["test", "--", ...productSuites()]);
  } catch (error) {
    console.error((error as Error).message);
    product = 1;
  }
}
console.log(`\nIn the copy: the one-page product's suites ${product === 0 ? "passed" : "FAILED"}.`);
if (product === 0) rmSync(copy, { recursive: true, force: true });
else console.error(`Failed in the copy, kept at ${copy}`);
process.exit(product === 0 ? 0 : 1);
