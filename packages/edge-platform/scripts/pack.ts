/**
 * `npm run pack -w edge-platform [-- --out DIR]`: the package as a registry would hold it, a tarball in DIR
 * (default: the current folder), its path printed last. What a product outside this repository installs
 * (`"edge-platform": "file:edge-platform-0.3.0.tgz"` stands in for the registry here).
 *
 * Node strips no types under node_modules (ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING), so the entry points
 * Node runs (the build's plugins, the local server and its bin, the CLI wrapper, the test helpers) are compiled
 * to JavaScript in dist/, which mirrors src/ (tsconfig.pack.json), and the packed package.json points them
 * there. The Worker's and the browser's code stay TypeScript: Vite compiles them with the product, as it does
 * here. TypeScript reads the compiled entry points' declarations. The package is packed from a staging folder, so
 * this folder's package.json stays as the workspace uses it.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const PACKAGE = resolve(import.meta.dirname, "..");

/** The entry points Node runs, by export: compiled into dist/ at the same path as their source in src/. */
export const NODE_ENTRY_POINTS = [
  "./vite",
  "./local-server",
  "./react-router-cli",
  "./testing",
  "./testing/playwright",
] as const;

/** What the tarball holds besides dist/ and package.json: the sources, the lint configuration, the docs. */
const SHIPPED = ["src", "lint", "docs", "README.md", "CHANGELOG.md", "UPGRADING.md"];

type Manifest = {
  exports: Record<string, string | Record<string, string>>;
  bin: Record<string, string>;
  scripts?: unknown;
};

/** `./src/x/y.ts` compiled: `./dist/x/y.js`. */
function compiled(sourcePath: string): string {
  return sourcePath.replace(/^\.\/src\//, "./dist/").replace(/\.tsx?$/, ".js");
}

/** `./src/x/y.ts` compiled: its declarations, `./dist/x/y.d.ts`. */
function declarations(sourcePath: string): string {
  return compiled(sourcePath).replace(/\.js$/, ".d.ts");
}

/**
 * The packed package.json: Node's entry points and the bin in dist/, typed by their compiled declarations (a
 * product's type-check reads them as any library's). The Worker's and the browser's entry points stay sources.
 */
export function packedManifest(manifest: Manifest): Manifest {
  const exports = { ...manifest.exports };
  for (const entry of NODE_ENTRY_POINTS) {
    const source = exports[entry];
    if (typeof source !== "string") throw new Error(`package.json exports no ${entry} source`);
    exports[entry] = { types: declarations(source), default: compiled(source) };
  }
  const bin = Object.fromEntries(Object.entries(manifest.bin).map(([name, path]) => [name, compiled(path)]));
  const { scripts: _scripts, ...rest } = manifest;
  return { ...rest, exports, bin };
}

export function pack(outDirectory: string): string {
  const staging = mkdtempSync(join(tmpdir(), "edge-platform-pack-"));
  try {
    // The fixture's runtime and route types, which the compiler reads as the package's own type-check does.
    execFileSync("npm", ["run", "typegen"], { cwd: PACKAGE, stdio: "ignore" });
    const tsc = join(PACKAGE, "../../node_modules/.bin/tsc");
    execFileSync(tsc, ["-p", "tsconfig.pack.json", "--outDir", join(staging, "compiled")], {
      cwd: PACKAGE,
      stdio: "inherit",
    });
    renameSync(join(staging, "compiled", "src"), join(staging, "dist"));
    rmSync(join(staging, "compiled"), { recursive: true });
    for (const path of SHIPPED) cpSync(join(PACKAGE, path), join(staging, path), { recursive: true });
    const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as Manifest;
    writeFileSync(join(staging, "package.json"), `${JSON.stringify(packedManifest(manifest), null, 2)}\n`);
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", staging, "--pack-destination", outDirectory, "--json"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }),
    ) as { filename: string }[];
    if (!packed) throw new Error("npm pack wrote no tarball");
    return join(outDirectory, packed.filename);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: "string", default: process.cwd() } } });
  console.log(pack(resolve(values.out)));
}
