import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { NODE_ENTRY_POINTS, pack } from "../../scripts/pack.ts";

// The package as a product outside this repository installs it (scripts/pack.ts): Node runs its entry points from
// node_modules, where it strips no types, so they must be the compiled ones and load there. Unpacked under
// node_modules/.cache of this repository, so its dependencies resolve from this checkout's node_modules.

const REPOSITORY = resolve(import.meta.dirname, "../../../..");
let out: string;
let consumer: string;
let tarball: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "edge-platform-packed-"));
  tarball = pack(out);
  mkdirSync(join(REPOSITORY, "node_modules/.cache"), { recursive: true });
  consumer = mkdtempSync(join(REPOSITORY, "node_modules/.cache/packed-consumer-"));
  const installed = join(consumer, "node_modules/edge-platform");
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
}, 120_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(consumer, { recursive: true, force: true });
});

test("the tarball holds the compiled entry points, the sources and the docs, and neither tests nor the fixture", () => {
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const file of [
    "dist/exports/vite.js",
    "dist/local-server/serve.js",
    "src/exports/worker.ts",
    "README.md",
  ])
    expect(files).toContain(`package/${file}`);
  expect(files.filter((file) => /^package\/(tests|fixture|scripts)\//.test(file))).toEqual([]);
  const manifest = JSON.parse(
    readFileSync(join(consumer, "node_modules/edge-platform/package.json"), "utf8"),
  );
  expect(manifest.exports["./vite"]).toEqual({
    types: "./dist/exports/vite.d.ts",
    default: "./dist/exports/vite.js",
  });
  expect(manifest.exports["./worker"]).toBe("./src/exports/worker.ts");
  expect(manifest.bin).toEqual({
    "edge-platform-serve": "./dist/local-server/serve.js",
    "edge-platform-react-router": "./dist/vite/react-router-cli-run.js",
  });
  expect(manifest.scripts).toBeUndefined();
});

test("Node loads every entry point it runs from node_modules", () => {
  const probe = join(consumer, "probe.mjs");
  writeFileSync(
    probe,
    `const names = {};
for (const entry of ${JSON.stringify(NODE_ENTRY_POINTS.map((entry) => `edge-platform${entry.slice(1)}`))})
  names[entry] = Object.keys(await import(entry));
console.log(JSON.stringify(names));
`,
  );
  const names = JSON.parse(execFileSync(process.execPath, [probe], { cwd: consumer, encoding: "utf8" }));
  expect(names["edge-platform/vite"]).toEqual(expect.arrayContaining(["cloudflareOptions", "edgePlatform"]));
  expect(names["edge-platform/local-server"]).toEqual(["serveBuild"]);
  expect(names["edge-platform/react-router-cli"]).toEqual(["runReactRouterCli"]);
  expect(names["edge-platform/testing"]).toEqual(
    expect.arrayContaining(["serveWithIngest", "measureFirstLoad"]),
  );
  expect(names["edge-platform/testing/playwright"]).toEqual(
    expect.arrayContaining(["test", "waitForHydration"]),
  );
}, 60_000);
