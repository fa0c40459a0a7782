import { describe, expect, test } from "vitest";
import { lint } from "../support/biome-lint";

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
