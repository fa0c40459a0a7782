import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, freePort } from "edge-platform/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ROOT, runCommand, startCommand } from "./run-script";

// `npm run create-product -- <folder>` (README, "Start a product in its own repository"): a product repository
// outside this one, holding only product files, the packed platform and a lockfile. There, as its team would:
// `npm ci` (from the registry, the platform from its tarball), `npm test`, `npm start`, `npm run dev` in Chromium.
// The packed platform itself (packages/edge-platform/scripts/pack.ts) is checked here too, as installed there: one
// pack serves both.

let parent: string;
let product: string;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), "created-product-"));
  product = join(parent, "my-product");
  const created = await runCommand(`npm run --silent create-product -- ${product}`, {
    stdin: "closed",
    timeoutMs: 120_000,
  });
  expect(created.code, created.output).toBe(0);
  const installed = await runCommand("npm ci --prefer-offline --no-audit --no-fund", {
    cwd: product,
    stdin: "closed",
    timeoutMs: 240_000,
  });
  expect(installed.code, installed.output).toBe(0);
}, 400_000);

afterAll(async () => {
  // A whole node_modules: seconds on a busy machine (npm test runs this suite beside the checkout's).
  await rm(parent, { recursive: true, force: true });
}, 120_000);

test("it holds product files only: no platform binding, no _headers, no path into the package", async () => {
  const files = (await readdir(product, { recursive: true })).filter(
    (file) => !file.startsWith("node_modules") && !file.startsWith(".react-router"),
  );
  expect(files.filter((file) => file.endsWith("_headers"))).toEqual([]);
  const wrangler = await readFile(join(product, "wrangler.toml"), "utf8");
  const declared = wrangler.split("\n").filter((line) => !line.startsWith("#"));
  for (const platformPart of ["ratelimits", "ASSETS", "CF_VERSION_METADATA", "[cache]", "[vars]"])
    expect(declared.join("\n")).not.toContain(platformPart);
  for (const config of files.filter((file) => /(^|\/)[^/]*\.(json|toml)$|config\.ts$/.test(file)))
    expect(await readFile(join(product, config), "utf8"), config).not.toContain("packages/edge-platform");
  const manifest = JSON.parse(await readFile(join(product, "package.json"), "utf8"));
  expect(manifest.dependencies["edge-platform"]).toMatch(/^file:\.\/edge-platform-\d+\.\d+\.\d+\.tgz$/);
  expect(existsSync(join(product, manifest.dependencies["edge-platform"].slice("file:".length)))).toBe(true);
  // Every other dependency at the version this repository tests.
  const tested = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
  for (const field of ["dependencies", "devDependencies"])
    for (const [name, version] of Object.entries(manifest[field]))
      if (name !== "edge-platform")
        expect(version, name).toBe(tested.dependencies[name] ?? tested.devDependencies[name]);
  expect(existsSync(join(product, "package-lock.json"))).toBe(true);
});

/** Every type file `npm run typegen` writes in the product (its `postinstall`), by path, with its text. */
async function generatedTypes(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const folder of ["workers", ".react-router/types"])
    for (const entry of await readdir(join(product, folder), { recursive: true, withFileTypes: true }))
      if (entry.isFile() && (folder !== "workers" || entry.name.endsWith(".d.ts"))) {
        const path = join(entry.parentPath, entry.name);
        files[path.slice(product.length + 1)] = await readFile(path, "utf8");
      }
  return files;
}

/** The types `npm ci` left, before anything else ran: compared below with the ones `npm test` type-checks with. */
let typesAfterInstall: Record<string, string> = {};

test("npm ci generated the types (postinstall), so a fresh clone's editor shows no false errors", async () => {
  // Not committed (.gitignore): without them, every route's `./+types/...` import is an error in the editor.
  typesAfterInstall = await generatedTypes();
  expect(Object.keys(typesAfterInstall)).toEqual(
    expect.arrayContaining([
      "workers/worker-configuration.d.ts",
      ".react-router/types/app/routes/+types/home.ts",
    ]),
  );
});

test("the packed platform holds its compiled Node entry points, its sources and docs, and no tests or fixture", async () => {
  const manifest = JSON.parse(await readFile(join(product, "package.json"), "utf8"));
  const tarball = join(product, manifest.dependencies["edge-platform"].slice("file:".length));
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const file of [
    "dist/exports/vite.js",
    "dist/local-server/serve.js",
    "src/exports/worker.ts",
    "README.md",
  ])
    expect(files).toContain(`package/${file}`);
  expect(files.filter((file) => /^package\/(tests|fixture|scripts)\//.test(file))).toEqual([]);
  const installed = JSON.parse(
    await readFile(join(product, "node_modules/edge-platform/package.json"), "utf8"),
  );
  expect(installed.exports["./vite"]).toEqual({
    types: "./dist/exports/vite.d.ts",
    default: "./dist/exports/vite.js",
  });
  expect(installed.exports["./worker"]).toBe("./src/exports/worker.ts");
  expect(installed.bin).toEqual({
    "edge-platform-serve": "./dist/local-server/serve.js",
    "edge-platform-react-router": "./dist/vite/react-router-cli-run.js",
  });
  expect(installed.scripts).toBeUndefined();
});

test("Node loads every compiled entry point from the product's node_modules (it strips no types there)", async () => {
  const installed = JSON.parse(
    await readFile(join(product, "node_modules/edge-platform/package.json"), "utf8"),
  );
  // Every export Node runs: the ones the packed manifest points into dist/.
  const nodeEntries = Object.entries(installed.exports as Record<string, unknown>)
    .filter(([, target]) => typeof target === "object")
    .map(([entry]) => `edge-platform${entry.slice(1)}`);
  expect(nodeEntries.length).toBeGreaterThanOrEqual(5);
  // Each import's export names, or the error it failed with.
  const probe = join(product, "probe.mjs");
  await writeFile(
    probe,
    `const names = {};
for (const entry of ${JSON.stringify(nodeEntries)})
  names[entry] = await import(entry).then((module) => Object.keys(module), (error) => String(error));
console.log(JSON.stringify(names));
`,
  );
  try {
    const names = JSON.parse(execFileSync(process.execPath, [probe], { cwd: product, encoding: "utf8" }));
    expect(names["edge-platform/vite"]).toEqual(
      expect.arrayContaining(["cloudflareOptions", "edgePlatform"]),
    );
    expect(names["edge-platform/local-server"]).toEqual(["serveBuild"]);
    expect(names["edge-platform/react-router-cli"]).toEqual(["runReactRouterCli"]);
    expect(names["edge-platform/testing"]).toEqual(
      expect.arrayContaining(["serveWithIngest", "measureFirstLoad"]),
    );
    // The Playwright helpers need Playwright, an optional peer the template does not install: without it, the
    // import says which package is missing.
    expect(installed.peerDependenciesMeta["@playwright/test"]).toEqual({ optional: true });
    expect(names["edge-platform/testing/playwright"]).toMatch(/Cannot find package '@playwright\/test'/);
  } finally {
    await rm(probe);
  }
}, 60_000);

test("npm test passes there: type-check, lint, build and its page test", async () => {
  const run = await runCommand("npm test", { cwd: product, stdin: "closed", timeoutMs: 240_000 });
  expect(run.code, run.output).toBe(0);
  expect(run.output).toMatch(/Tests\s+\S*\s*2 passed/);
  // Its type-check wrote the types again: the same ones the install left.
  expect(await generatedTypes()).toEqual(typesAfterInstall);
}, 250_000);

test("npm start serves its page, and npm run dev renders and hydrates it in Chromium", async () => {
  // `npm start` is the build `npm test` ran above, then `npm run preview`: the second half is run here, on that
  // build (building again cost the suite half a minute and proved nothing more).
  const { scripts } = JSON.parse(await readFile(join(product, "package.json"), "utf8"));
  expect(scripts.start).toBe("npm run build && npm run preview --");
  expect(scripts.test).toMatch(/&& npm run build &&/);
  const startPort = await freePort();
  const start = startCommand(`npm run preview -- --port ${startPort}`, {
    cwd: product,
    stdin: "closed",
    timeoutMs: 150_000,
  });
  try {
    await expect
      .poll(() => start.output(), { timeout: 140_000, interval: 250 })
      .toContain(`http://127.0.0.1:${startPort}`);
    const response = await fetch(`http://127.0.0.1:${startPort}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<h1>My product</h1>");
  } finally {
    await start.stop();
  }

  const devPort = await freePort();
  const dev = startCommand(`npm run dev -- --host 127.0.0.1 --port ${devPort} --strictPort`, {
    cwd: product,
    stdin: "closed",
    timeoutMs: 150_000,
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  try {
    await expect
      .poll(() => dev.output(), { timeout: 120_000, interval: 250 })
      .toContain(`http://127.0.0.1:${devPort}/`);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on(
      "response",
      (answer) => answer.status() >= 400 && problems.push(`${answer.status()} ${answer.url()}`),
    );
    const response = await page.goto(`http://127.0.0.1:${devPort}/`);
    expect(response?.status()).toBe(200);
    // A wait that catches a hang: under load the first page of a dev server can take seconds (Vite may reload it once
    // its dependencies are optimized); vitest's poll gives up after one second by default.
    await expect.poll(() => page.locator("h1").textContent(), { timeout: 30_000 }).toBe("My product");
    // The platform's navigation code installed: the page hydrated.
    await page.waitForFunction(() => document.documentElement.dataset.navigation === "ready", undefined, {
      timeout: 60_000,
    });
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
    await dev.stop();
  }
}, 300_000);
