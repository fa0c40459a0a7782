import { resolve } from "node:path";
import { createElement, createRef, type ReactElement } from "react";
import { Link as RouterLink, NavLink as RouterNavLink } from "react-router";
import { describe, expect, test } from "vitest";
import { type LinkFacts, linkPrefetchMode } from "../../src/navigation/link-prefetch";
import { anchorPrefetch, Link, NavLink } from "../../src/navigation/react-router-links";
import { PLATFORM_LINKS_MODULE, usesPlatformLinks } from "../../src/vite/platform-links";
import { lint } from "../support/biome-lint";

/** The repository: the product at its root, this package in packages/edge-platform. */
const ROOT = resolve(import.meta.dirname, "../../../..");
const PAGE = "https://app.example";

function link(facts: Partial<LinkFacts>): LinkFacts {
  return { href: `${PAGE}/about`, written: "/about", target: null, download: null, prefetch: null, ...facts };
}

describe("linkPrefetchMode (packages/edge-platform/docs/contract.md C5: which links the platform prefetches)", () => {
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

  test("a link written as a fragment alone (a skip link) points into the page shown: never watched", () => {
    // Its resolved href is the page's URL with the fragment: it changes with every navigation.
    expect(linkPrefetchMode(link({ href: `${PAGE}/now#main`, written: "#main" }), PAGE)).toBe("none");
    expect(
      linkPrefetchMode(link({ href: `${PAGE}/#main`, written: "#main", prefetch: "render" }), PAGE),
    ).toBe("none");
    // A fragment of another page is a navigation to it.
    expect(linkPrefetchMode(link({ href: `${PAGE}/about#team`, written: "/about#team" }), PAGE)).toBe(
      "viewport",
    );
  });

  test("a link that stays in this browsing context is prefetched", () => {
    expect(linkPrefetchMode(link({ target: "_self" }), PAGE)).toBe("viewport");
    expect(linkPrefetchMode(link({ target: "" }), PAGE)).toBe("viewport");
  });
});

describe("anchorPrefetch: React Router's prefetch prop as the anchor's data-prefetch (packages/edge-platform/docs/decisions/020)", () => {
  test("each of React Router's modes maps onto the platform's; absent and viewport are the default", () => {
    expect(anchorPrefetch({})).toBeUndefined();
    expect(anchorPrefetch({ prefetch: "viewport" })).toBeUndefined();
    expect(anchorPrefetch({ prefetch: "intent" })).toBe("intent");
    expect(anchorPrefetch({ prefetch: "render" })).toBe("render");
    expect(anchorPrefetch({ prefetch: "none" })).toBe("none");
  });

  test("a link that loads a document is never prefetched, whatever its prefetch prop", () => {
    expect(anchorPrefetch({ reloadDocument: true })).toBe("none");
    expect(anchorPrefetch({ reloadDocument: true, prefetch: "render" })).toBe("none");
    expect(anchorPrefetch({ reloadDocument: false, prefetch: "intent" })).toBe("intent");
  });

  test("a data-prefetch written on the link wins", () => {
    expect(anchorPrefetch({ "data-prefetch": "none", prefetch: "render" })).toBe("none");
    expect(anchorPrefetch({ "data-prefetch": "render", reloadDocument: true })).toBe("render");
  });
});

/** What a wrapper renders: React Router's own component, and the props it gets. */
function rendered(element: ReactElement): { type: unknown; props: Record<string, unknown> } {
  const { type, props } = element as { type: unknown; props: Record<string, unknown> };
  if (typeof type !== "function") throw new Error("not a component element");
  return (type as (props: unknown) => { type: unknown; props: Record<string, unknown> })(props);
}

describe("the platform's Link and NavLink render React Router's own, without its prefetch", () => {
  test("Link: React Router's Link, prefetch removed, the mode on the anchor, the ref passed on", () => {
    const ref = createRef<HTMLAnchorElement>();
    const out = rendered(createElement(Link, { to: "/about", prefetch: "intent", ref, className: "x" }));
    expect(out.type).toBe(RouterLink);
    expect(out.props).not.toHaveProperty("prefetch");
    expect(out.props).toMatchObject({ to: "/about", ref, className: "x", "data-prefetch": "intent" });
  });

  test("NavLink: React Router's NavLink, the same mapping, reloadDocument kept for React Router", () => {
    const out = rendered(
      createElement(NavLink, { to: "/", end: true, reloadDocument: true, prefetch: "render" }),
    );
    expect(out.type).toBe(RouterNavLink);
    expect(out.props).not.toHaveProperty("prefetch");
    expect(out.props).toMatchObject({ to: "/", end: true, reloadDocument: true, "data-prefetch": "none" });
  });

  test("a Link without prefetch gets no data-prefetch: the platform's default", () => {
    const out = rendered(createElement(Link, { to: "/about" }));
    expect(out.props["data-prefetch"]).toBeUndefined();
  });
});

describe("usesPlatformLinks: which imports of react-router the build resolves to the platform's links", () => {
  const APP = resolve(ROOT, "app");

  test("a product file's react-router, route modules entered through React Router's query included", () => {
    expect(usesPlatformLinks("react-router", `${APP}/routes/home.tsx`, APP)).toBe(true);
    expect(usesPlatformLinks("react-router", `${APP}/components/site-nav.tsx`, APP)).toBe(true);
    expect(usesPlatformLinks("react-router", `${APP}/root.tsx?__react-router-build-client-route`, APP)).toBe(
      true,
    );
    const fixture = resolve(ROOT, "packages/edge-platform/fixture/app");
    expect(usesPlatformLinks("react-router", `${fixture}/routes/links.tsx`, fixture)).toBe(true);
  });

  test("not the platform's own modules, the links module first (it imports the real React Router)", () => {
    expect(usesPlatformLinks("react-router", PLATFORM_LINKS_MODULE, APP)).toBe(false);
    const platformModule = resolve(ROOT, "packages/edge-platform/src/navigation/navigation-client.ts");
    expect(usesPlatformLinks("react-router", platformModule, APP)).toBe(false);
    const fixture = resolve(ROOT, "packages/edge-platform/fixture/app");
    expect(usesPlatformLinks("react-router", PLATFORM_LINKS_MODULE, fixture)).toBe(false);
  });

  test("not dependencies, files outside the app, virtual modules or other specifiers", () => {
    const dependency = resolve(ROOT, "node_modules/@react-router/dev/dist/entry.client.js");
    expect(usesPlatformLinks("react-router", dependency, APP)).toBe(false);
    expect(usesPlatformLinks("react-router", `${APP}/node_modules/some-ui/link.js`, APP)).toBe(false);
    expect(usesPlatformLinks("react-router", resolve(ROOT, "workers/app.ts"), APP)).toBe(false);
    expect(usesPlatformLinks("react-router", `${APP}-other/routes/home.tsx`, APP)).toBe(false);
    expect(usesPlatformLinks("react-router", "\0virtual:react-router/server-build", APP)).toBe(false);
    expect(usesPlatformLinks("react-router", undefined, APP)).toBe(false);
    expect(usesPlatformLinks("react-router/dom", `${APP}/entry.client.tsx`, APP)).toBe(false);
    expect(usesPlatformLinks("react", `${APP}/routes/home.tsx`, APP)).toBe(false);
  });
});

const IMPORTS = `import { Link, NavLink } from "react-router";\n`;

describe("the lint takes React Router's prefetch prop and refuses only PrefetchPageLinks", () => {
  for (const mode of ["intent", "render", "viewport", "none"]) {
    test(`<Link prefetch="${mode}"> and <NavLink prefetch="${mode}"> pass`, () => {
      const { ok, output } = lint(
        `${IMPORTS}export const a = () => (\n  <>\n    <Link to="/about" prefetch="${mode}">\n      About\n    </Link>\n    <NavLink prefetch="${mode}" to="/about" />\n  </>\n);\n`,
      );
      expect(output).not.toContain("prefetch");
      expect(ok).toBe(true);
    });
  }

  test("PrefetchPageLinks cannot be imported: it fetches outside the queue and no prop can route it", () => {
    const { ok, output } = lint(
      `import { PrefetchPageLinks } from "react-router";\nexport const a = () => <PrefetchPageLinks page="/about" />;\n`,
    );
    expect(ok).toBe(false);
    expect(output).toContain("its prefetch prop picks another mode");
    expect(output).toContain("usePrefetch()");
  });

  test("Link and NavLink as React Router documents them, reloadDocument and data-prefetch included, pass", () => {
    const { ok, output } = lint(
      `${IMPORTS}export const a = () => (\n  <>\n    <Link to="/about">About</Link>\n    <Link to="/now" data-prefetch="none">\n      Now\n    </Link>\n    <Link to="/old" reloadDocument>\n      Old\n    </Link>\n    <NavLink to="/" end>\n      Home\n    </NavLink>\n  </>\n);\n`,
    );
    expect(output).not.toContain("prefetch");
    expect(ok).toBe(true);
  });
});
