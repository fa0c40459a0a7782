/**
 * `npm run create-product -- <folder>`: a new product repository in <folder> (outside this one), in the spirit of
 * `create-react-router --template`. It holds only product files (the platform's template,
 * packages/edge-platform/template: one page, its tests, the configs) and depends on the platform as a package:
 * the packed platform (`edge-platform-<version>.tgz`, standing in for a registry) beside its package.json, which
 * names it, and a lockfile. Its other dependencies are the versions this repository tests. Then, in <folder>:
 * `npm ci`, `npm test`, `npm start`, `npm run dev`. Taking a new platform there is one tarball and one version:
 * copy the new tarball in, change the `edge-platform` entry, `npm install`, and read the package's UPGRADING.md.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, delimiter, join, relative, resolve } from "node:path";

const REPOSITORY = resolve(import.meta.dirname, "..");
const TEMPLATE = join(REPOSITORY, "packages/edge-platform/template");

export function createProduct(folder: string): string {
  const target = resolve(folder);
  if (!relative(REPOSITORY, target).startsWith("..")) throw new Error(`${target} is inside this repository`);
  // npm puts <folder>/node_modules/.bin on PATH, whose separator is ':': none of the product's scripts would
  // find its tools (tsc, biome, react-router), and `npm test` would fail with "not found".
  if (target.includes(delimiter))
    throw new Error(`${target} has a '${delimiter}' in its path: npm's scripts cannot run there (PATH)`);
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new Error(`${target} exists and is not empty`);
  cpSync(TEMPLATE, target, { recursive: true });
  // Under other names in the template: npm leaves a `.gitignore` out of packages, and a biome.json inside the
  // package would be a nested configuration of the package's own.
  renameSync(join(target, "gitignore"), join(target, ".gitignore"));
  renameSync(join(target, "biome.template.json"), join(target, "biome.json"));
  // The package's own pack script (its last line is the tarball's path).
  const packed = execFileSync(
    "npm",
    ["run", "--silent", "pack", "-w", "edge-platform", "--", "--out", target],
    {
      cwd: REPOSITORY,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const tarball = basename(packed.trim().split("\n").at(-1) ?? "");
  const manifestPath = join(target, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  manifest.name = basename(target)
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-");
  // The versions this repository tests, so the template's never lag behind them.
  const tested = JSON.parse(readFileSync(join(REPOSITORY, "package.json"), "utf8"));
  for (const field of ["dependencies", "devDependencies"] as const)
    for (const name of Object.keys(manifest[field]))
      manifest[field][name] =
        tested.dependencies[name] ?? tested.devDependencies[name] ?? manifest[field][name];
  manifest.overrides = tested.overrides;
  manifest.allowScripts = tested.allowScripts;
  manifest.dependencies["edge-platform"] = `file:./${tarball}`;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  // Its lockfile, so `npm ci` installs exactly what was resolved here (nothing is installed yet).
  execFileSync(
    "npm",
    ["install", "--package-lock-only", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"],
    {
      cwd: target,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return target;
}

if (import.meta.main) {
  const [folder] = process.argv.slice(2);
  if (!folder) {
    console.error("Usage: npm run create-product -- <folder outside this repository>");
    process.exit(2);
  }
  try {
    const target = createProduct(folder);
    console.log(`A new product in ${target}. Next:\n  cd ${target}\n  npm ci\n  npm test\n  npm start`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}
