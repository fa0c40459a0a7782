import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** This package, linked into the product as its node_modules/edge-platform. */
export const PACKAGE = resolve(import.meta.dirname, "../..");
/** The repository's Biome (the product's devDependency). */
export const BIOME = resolve(PACKAGE, "../../node_modules/.bin/biome");

/**
 * Biome on one file of a product whose biome.json only extends the package's shareable configuration
 * (`"extends": ["edge-platform/biome"]`, lint/biome-product.json): the rules every product gets from the
 * package, and nothing of this repository's own. A file, not stdin (Biome runs no plugins on stdin); `path` is
 * where the file sits in the product.
 */
export function lint(source: string, path = "app/routes/example.tsx"): { ok: boolean; output: string } {
  const product = mkdtempSync(join(tmpdir(), "lint-"));
  try {
    mkdirSync(join(product, "node_modules"));
    symlinkSync(PACKAGE, join(product, "node_modules", "edge-platform"));
    writeFileSync(join(product, "biome.json"), JSON.stringify({ extends: ["edge-platform/biome"] }));
    mkdirSync(dirname(join(product, path)), { recursive: true });
    writeFileSync(join(product, path), source);
    const result = spawnSync(BIOME, ["lint", path], { cwd: product, encoding: "utf8" });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(product, { recursive: true, force: true });
  }
}
