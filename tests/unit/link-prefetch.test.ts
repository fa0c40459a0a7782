import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { type LinkFacts, linkPrefetchMode } from "../../app/platform/navigation/link-prefetch";

const PAGE = "https://app.example";

function link(facts: Partial<LinkFacts>): LinkFacts {
  return { href: `${PAGE}/about`, target: null, download: null, prefetch: null, ...facts };
}

describe("linkPrefetchMode (docs/contract.md C5: which links the platform prefetches)", () => {
  test("a plain same-origin link, as Link and NavLink render it, is prefetched once visible", () => {
    expect(linkPrefetchMode(link({}), PAGE)).toBe("viewport");
  });

  test("data-prefetch chooses the mode; an unknown value is the default", () => {
    expect(linkPrefetchMode(link({ prefetch: "none" }), PAGE)).toBe("none");
    expect(linkPrefetchMode(link({ prefetch: "intent" }), PAGE)).toBe("intent");
    expect(linkPrefetchMode(link({ prefetch: "render" }), PAGE)).toBe("render");
    expect(linkPrefetchMode(link({ prefetch: "viewport" }), PAGE)).toBe("viewport");
    expect(linkPrefetchMode(link({ prefetch: "soon" }), PAGE)).toBe("viewport");
  });

  test("links a client navigation never follows are not prefetched, whatever data-prefetch says", () => {
    expect(linkPrefetchMode(link({ href: "https://other.example/about", prefetch: "render" }), PAGE)).toBe(
      "none",
    );
    expect(linkPrefetchMode(link({ href: "mailto:someone@app.example" }), PAGE)).toBe("none");
    expect(linkPrefetchMode(link({ href: "http://app.example/about" }), PAGE)).toBe("none");
    expect(linkPrefetchMode(link({ download: "" }), PAGE)).toBe("none");
    expect(linkPrefetchMode(link({ target: "_blank" }), PAGE)).toBe("none");
    expect(linkPrefetchMode(link({ href: "not a url" }), PAGE)).toBe("none");
  });

  test("a link that stays in this browsing context is prefetched", () => {
    expect(linkPrefetchMode(link({ target: "_self" }), PAGE)).toBe("viewport");
    expect(linkPrefetchMode(link({ target: "" }), PAGE)).toBe("viewport");
  });
});

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Biome on one product file, with the repository's configuration and its plugin (a file, not stdin: Biome
 * runs no plugins on stdin). The copy of biome.json points at the plugin in place; no git outside the repo.
 */
function lint(source: string) {
  const directory = mkdtempSync(join(tmpdir(), "lint-"));
  try {
    const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
    config.$schema = undefined;
    config.vcs = { enabled: false };
    config.plugins = config.plugins.map((plugin: string) => resolve(ROOT, plugin));
    writeFileSync(join(directory, "biome.json"), JSON.stringify(config));
    mkdirSync(join(directory, "app/routes"), { recursive: true });
    writeFileSync(join(directory, "app/routes/example.tsx"), source);
    const result = spawnSync(join(ROOT, "node_modules/.bin/biome"), ["lint", "app/routes/example.tsx"], {
      cwd: directory,
      encoding: "utf8",
    });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const IMPORTS = `import { Link, NavLink } from "react-router";\n`;

describe("the lint refuses React Router's own prefetch, saying what to write instead", () => {
  for (const mode of ["intent", "render", "viewport", "none"]) {
    test(`<Link prefetch="${mode}"> and <NavLink prefetch="${mode}"> fail`, () => {
      for (const element of [
        `<Link to="/about" prefetch="${mode}">About</Link>`,
        `<NavLink prefetch="${mode}" to="/about" />`,
      ]) {
        const { ok, output } = lint(`${IMPORTS}export const a = () => ${element};\n`);
        expect(ok, element).toBe(false);
        expect(output).toMatch(
          /write the `data-prefetch` attribute instead: intent, render or none, the opt-out/,
        );
      }
    });
  }

  test("PrefetchPageLinks cannot be imported", () => {
    const { ok, output } = lint(
      `import { PrefetchPageLinks } from "react-router";\nexport const a = () => <PrefetchPageLinks page="/about" />;\n`,
    );
    expect(ok).toBe(false);
    expect(output).toContain("useAppRouter().prefetch(to)");
  });

  test("Link and NavLink as React Router documents them, with data-prefetch, pass", () => {
    const { ok, output } = lint(
      `${IMPORTS}export const a = () => (\n  <>\n    <Link to="/about">About</Link>\n    <Link to="/now" data-prefetch="none">\n      Now\n    </Link>\n    <NavLink to="/" end>\n      Home\n    </NavLink>\n  </>\n);\n`,
    );
    expect(output).not.toContain("prefetch");
    expect(ok).toBe(true);
  });
});
