import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { BIOME, lint, PACKAGE } from "../support/biome-lint";

// What a product's `npm run lint` gets from `"extends": ["edge-platform/biome"]` beside the style-attribute and
// PrefetchPageLinks rules (style-attributes.test.ts, link-prefetch.test.ts): the platform through its entry
// points only, so an upgrade of the package cannot break a product through a file it moved.

describe("the package's shareable lint configuration refuses deep imports into the package", () => {
  for (const [path, specifier] of [
    ["app/routes/example.tsx", "edge-platform/src/headers"],
    ["tests/example.test.ts", "../node_modules/edge-platform/src/headers"],
    ["bench/example.ts", "../packages/edge-platform/src/headers"],
  ] as const) {
    test(`${specifier} from ${path}`, () => {
      const { ok, output } = lint(`import { a } from "${specifier}";\nexport const b = a;\n`, path);
      expect(ok).toBe(false);
      expect(output).toContain("only through its entry points");
    });
  }

  test("an entry point passes", () => {
    const { ok, output } = lint(
      `import { ErrorPage } from "edge-platform/react";\nexport const b = ErrorPage;\n`,
    );
    expect(output).not.toContain("entry points");
    expect(ok).toBe(true);
  });
});

describe("the package's own lint configuration holds its fixture to what a product may import", () => {
  /** Biome on one file at `path` of a folder holding this package's own biome.json (and the plugin it names). */
  function lintInPackage(source: string, path: string) {
    const folder = mkdtempSync(join(tmpdir(), "package-lint-"));
    try {
      for (const file of ["biome.json", ".gitignore", "lint/no-style-attribute.grit"])
        cpSync(join(PACKAGE, file), join(folder, file));
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), source);
      const result = spawnSync(BIOME, ["lint", "--vcs-enabled=false", path], {
        cwd: folder,
        encoding: "utf8",
      });
      return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  test.each(["../../../src/reporting/sentry-dsn", "edge-platform/src/headers"])(
    "%s from the fixture's routes",
    (specifier) => {
      const { ok, output } = lintInPackage(
        `import { a } from "${specifier}";\nexport const b = a;\n`,
        "fixture/app/routes/example.tsx",
      );
      expect(ok).toBe(false);
      expect(output).toContain("The fixture uses only what a product may");
    },
  );

  test("the platform's source never imports a product's module", () => {
    const { ok, output } = lintInPackage(
      `import { a } from "../routes/home";\nexport const b = a;\n`,
      "src/worker/example.ts",
    );
    expect(ok).toBe(false);
    expect(output).toContain("never imports product code");
  });
});
