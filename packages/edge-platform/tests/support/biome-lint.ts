import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** The repository whose biome.json is checked: the product at its root, this package in packages/edge-platform. */
const ROOT = resolve(import.meta.dirname, "../../../..");

type Overrides = { plugins?: string[] }[];

/**
 * Biome on one file, with the repository's configuration (a file, not stdin: Biome runs no plugins on
 * stdin), as `npm run lint` would see it at `path` (relative to the repository's root). The copy of
 * biome.json points at its plugins in place, top-level and in overrides; no git outside the repo.
 */
export function lint(source: string, path = "app/routes/example.tsx"): { ok: boolean; output: string } {
  const directory = mkdtempSync(join(tmpdir(), "lint-"));
  try {
    const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
    const inPlace = (plugin: string) => resolve(ROOT, plugin);
    config.$schema = undefined;
    config.vcs = { enabled: false };
    if (config.plugins) config.plugins = config.plugins.map(inPlace);
    for (const override of (config.overrides ?? []) as Overrides)
      if (override.plugins) override.plugins = override.plugins.map(inPlace);
    writeFileSync(join(directory, "biome.json"), JSON.stringify(config));
    mkdirSync(dirname(join(directory, path)), { recursive: true });
    writeFileSync(join(directory, path), source);
    const result = spawnSync(join(ROOT, "node_modules/.bin/biome"), ["lint", path], {
      cwd: directory,
      encoding: "utf8",
    });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
