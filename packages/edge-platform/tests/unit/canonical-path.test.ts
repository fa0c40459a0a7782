import fc from "fast-check";
import { matchRoutes } from "react-router";
import { describe, expect, test } from "vitest";
import {
  type CanonicalOptions,
  canonicalLocations,
  type ManifestRoute,
  routeTree,
  spelledAsDeclared,
} from "../../src/canonical-path.ts";

/** A server build's route manifest, shaped as `serverBuild.routes` is (the fixture's routes and a few more). */
const MANIFEST: Record<string, ManifestRoute> = {
  root: { id: "root", path: "" },
  "routes/home": { id: "routes/home", parentId: "root", index: true },
  "routes/about": { id: "routes/about", parentId: "root", path: "about" },
  "routes/items": { id: "routes/items", parentId: "root", path: "items" },
  "routes/item": { id: "routes/item", parentId: "root", path: "items/:id" },
  "routes/items-new": { id: "routes/items-new", parentId: "root", path: "items/new" },
  "routes/glossary-term": { id: "routes/glossary-term", parentId: "root", path: "glossary/:slug" },
  "routes/messages-latest": { id: "routes/messages-latest", parentId: "root", path: "messages/latest" },
  "routes/docs": { id: "routes/docs", parentId: "root", path: "docs/*" },
  "routes/shop": { id: "routes/shop", parentId: "root", path: ":lang?/shop" },
  "routes/help": { id: "routes/help", parentId: "root", path: "en?/help" },
  "routes/exact": { id: "routes/exact", parentId: "root", path: "Exact", caseSensitive: true },
  "routes/account": { id: "routes/account", parentId: "root", path: "Account" },
  "routes/account-layout": { id: "routes/account-layout", parentId: "root", path: "settings" },
  "routes/account-profile": {
    id: "routes/account-profile",
    parentId: "routes/account-layout",
    path: "profile/:tab",
  },
  "routes/account-index": { id: "routes/account-index", parentId: "routes/account-layout", index: true },
  "routes/cafe": { id: "routes/cafe", parentId: "root", path: "café" },
};
const ROUTES = routeTree(MANIFEST);

/** Where the Worker sends a GET or HEAD of `path` (a URL's pathname, and query), if anywhere. */
const location = (path: string, options?: CanonicalOptions, manifest = MANIFEST) =>
  canonicalLocations(manifest, options)(new URL(`https://app.example${path}`));
/** The spelling the Worker serves `pathname` under: its canonical one, or itself when it is not sent on. */
const canonical = (pathname: string, basename?: string) => location(pathname, { basename }) ?? pathname;

describe("routeTree: the manifest as React Router's server matches it", () => {
  test("children sit under their parent, in the manifest's order", () => {
    const ids = matchRoutes(ROUTES, "/settings/profile/a")?.map((match) => match.route.id);
    expect(ids).toEqual(["root", "routes/account-layout", "routes/account-profile"]);
    expect(matchRoutes(ROUTES, "/")?.map((match) => match.route.id)).toEqual(["root", "routes/home"]);
  });
});

describe("canonical spelling: a path already canonical is its own", () => {
  test.each([
    "/",
    "/about",
    "/items",
    "/items/ams",
    "/items/new",
    "/items/AMS",
    "/glossary/EDGE",
    "/messages/latest",
    "/docs/a/b",
    "/shop",
    "/fr/shop",
    "/help",
    "/en/help",
    "/Exact",
    "/Account",
    "/settings",
    "/settings/profile/x",
    "/caf%C3%A9",
    "/items/a%3Ab",
    "/items/a%2Fb",
    "/items/caf%C3%A9",
  ])("%s", (path) => {
    expect(canonical(path)).toBe(path);
  });
});

describe("canonical spelling: static segments as declared", () => {
  test.each([
    ["/About", "/about"],
    ["/ABOUT", "/about"],
    ["/Messages/Latest", "/messages/latest"],
    ["/ITEMS/ams", "/items/ams"],
    ["/Glossary/EDGE", "/glossary/EDGE"],
    ["/account", "/Account"],
    ["/Settings/PROFILE/Tab", "/settings/profile/Tab"],
    ["/EN/help", "/en/help"],
    ["/Docs/A/b", "/docs/A/b"],
    ["/CAF%C3%89", "/caf%C3%A9"],
  ])("%s -> %s", (path, expected) => {
    expect(canonical(path)).toBe(expected);
  });

  test("a static segment that matched only after decoding is written as declared", () => {
    expect(canonical("/messages/lat%65st")).toBe("/messages/latest");
    expect(canonical("/%61bout")).toBe("/about");
    expect(canonical("/items/%6Eew")).toBe("/items/new");
  });
});

describe("canonical spelling: dynamic values as React Router decodes them, written by encodeURIComponent", () => {
  test.each([
    ["/items/%61ms", "/items/ams"],
    ["/items/%41MS", "/items/AMS"],
    ["/items/a:b", "/items/a%3Ab"],
    ["/items/a%3ab", "/items/a%3Ab"],
    ["/items/caf%c3%a9", "/items/caf%C3%A9"],
    ["/items/%21", "/items/!"],
    ["/items/a%252Fb", "/items/a%2Fb"],
    ["/items/a%20b", "/items/a%20b"],
    ["/items/a+b", "/items/a%2Bb"],
    ["/fr/Shop", "/fr/shop"],
    ["/%66r/shop", "/fr/shop"],
    ["/docs/%61/b%20c", "/docs/a/b%20c"],
    ["/docs/a%2Fb", "/docs/a/b"],
  ])("%s -> %s", (path, expected) => {
    expect(canonical(path)).toBe(expected);
  });
});

describe("canonical spelling: trailing slashes are dropped, as the assets drop them", () => {
  test.each([
    ["/about/", "/about"],
    ["/About/", "/about"],
    ["/items/ams/", "/items/ams"],
    ["/items/ams//", "/items/ams"],
    ["/settings/", "/settings"],
    ["//", "/"],
  ])("%s -> %s", (path, expected) => {
    expect(canonical(path)).toBe(expected);
  });
});

describe("canonical spelling: left alone", () => {
  test.each(["/nope", "/about/more", "/exact", "/NOW%2F", "/items//ams"])("%s", (path) => {
    expect(location(path)).toBeUndefined();
  });

  test("a path React Router cannot decode (it matches it as it is) is a bug or a probe, not a spelling", () => {
    expect(matchRoutes(ROUTES, "/Items/%E0%A4%A")?.at(-1)?.route.id).toBe("routes/item");
    expect(location("/Items/%E0%A4%A")).toBeUndefined();
  });

  test("a splat piece a URL cannot hold (`.`, `..`) leaves the path alone", () => {
    expect(location("/docs/a%2F.")).toBeUndefined();
    expect(location("/docs/a%2F..")).toBeUndefined();
  });

  test("an unknown path matches no route", () => {
    expect(location("/nope")).toBeUndefined();
    expect(location("/exact")).toBeUndefined();
    expect(location("/about/more")).toBeUndefined();
  });

  test("a splat with a trailing slash is another value, so no other spelling renders it", () => {
    expect(location("/docs/a/")).toBeUndefined();
  });
});

describe("canonical spelling under a basename", () => {
  test.each([
    ["/app", "/app"],
    ["/app/About", "/app/about"],
    ["/APP/about", "/app/about"],
    ["/app/items/%61ms/", "/app/items/ams"],
  ])("%s -> %s", (path, expected) => {
    expect(canonical(path, "/app")).toBe(expected);
  });
});

describe("where a GET or HEAD goes", () => {
  test.each([
    ["/About", "/about"],
    ["/About?b=2&a=1", "/about?b=2&a=1"],
    ["/items/%61ms?x=%41", "/items/ams?x=%41"],
    ["/About.data?_routes=routes/about", "/about.data?_routes=routes/about"],
    ["/items/%61ms.data", "/items/ams.data"],
    ["/about/.data", "/about.data"],
    ["/.data", "/_root.data"],
    ["/Messages/Latest.data", "/messages/latest.data"],
  ])("%s -> %s", (path, expected) => {
    expect(location(path)).toBe(expected);
  });

  test.each([
    "/about",
    "/about?x=1",
    "/_root.data",
    "/about.data",
    "/items/ams.data?_routes=root",
    "/nope",
    "/Nope.data",
  ])("%s stays", (path) => {
    expect(location(path)).toBeUndefined();
  });
});

describe("a pre-rendered page's trailing slash is the assets' to answer", () => {
  const STATIC = { staticRouteIds: new Set(["routes/about", "routes/glossary-term"]) };
  const staticLocation = (path: string) => location(path, STATIC);

  test("a trailing slash alone: left to the assets (and to the pre-renderer, which asks for `/about/`)", () => {
    expect(staticLocation("/about/")).toBeUndefined();
    expect(staticLocation("/glossary/edge/")).toBeUndefined();
  });

  test("another spelling besides goes straight to the page, without the slash", () => {
    expect(staticLocation("/About/")).toBe("/about");
    expect(staticLocation("/glossary/%65dge/")).toBe("/glossary/edge");
    expect(staticLocation("/about/.data")).toBe("/about.data");
  });

  test("a dynamic page's trailing slash is still dropped", () => {
    expect(staticLocation("/items/ams/")).toBe("/items/ams");
    expect(location("/about/")).toBe("/about");
  });
});

describe("properties", () => {
  const segment = fc.string({
    unit: fc.constantFrom(..."aAbZ09-_.~!*'():@$&+,;=% /éß\u{1F600}"),
    minLength: 1,
    maxLength: 6,
  });
  const spelling = segment.map((text) =>
    [...text].map((char) => (char === "/" ? "%2F" : char === "%" ? "%25" : char)).join(""),
  );
  const mixedCase = (text: string) =>
    fc
      .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
      .map((flags) => [...text].map((char, index) => (flags[index] ? char.toUpperCase() : char)).join(""));
  const paths = fc.oneof(
    spelling.map((id) => `/items/${id}`),
    spelling.map((slug) => `/glossary/${slug}`),
    fc.array(spelling, { minLength: 1, maxLength: 3 }).map((pieces) => `/docs/${pieces.join("/")}`),
    fc.constantFrom("/about", "/messages/latest", "/settings/profile/x", "/en/help").chain(mixedCase),
  );
  /** As the Worker sees it: a URL parser's pathname. */
  const parsed = (path: string) => new URL(path, "https://app.example").pathname;

  test("the canonical spelling renders the same routes with the same params, and is its own canonical", () => {
    fc.assert(
      fc.property(paths, fc.boolean(), (raw, slash) => {
        const path = parsed(raw + (slash ? "/" : ""));
        const target = canonical(path);
        expect(target).toBe(parsed(target));
        expect(canonical(target)).toBe(target);
        expect(target.startsWith("//")).toBe(false);
        const before = matchRoutes(ROUTES, path);
        const after = matchRoutes(ROUTES, target);
        expect(after?.map((match) => match.route.id)).toEqual(before?.map((match) => match.route.id));
        expect(after?.at(-1)?.params).toEqual(before?.at(-1)?.params);
      }),
      { numRuns: 2_000 },
    );
  });

  test("every spelling of a page has the same canonical spelling", () => {
    const encodedChar = (char: string) => `%${char.charCodeAt(0).toString(16)}`;
    fc.assert(
      fc.property(
        fc.constantFrom("/about", "/messages/latest", "/items/ams", "/glossary/edge"),
        fc.array(fc.constantFrom("same", "upper", "encoded", "encoded-upper"), {
          minLength: 20,
          maxLength: 20,
        }),
        (page, spellings) => {
          const [, first = ""] = page.split("/");
          // Only static segments may change case: a parameter's value is the page's own.
          const spelled = [...page]
            .map((char, index) => {
              if (char === "/") return char;
              const inStatic = index <= first.length;
              const spellingOf = spellings[index % spellings.length];
              if (spellingOf === "encoded") return encodedChar(char);
              if (spellingOf === "encoded-upper") return encodedChar(char).toUpperCase();
              if (spellingOf === "upper" && inStatic) return char.toUpperCase();
              return char;
            })
            .join("");
          expect(canonical(spelled)).toBe(page);
        },
      ),
    );
  });
});

describe("canonicalLocations: the Worker's per-isolate form", () => {
  /** A manifest the quick test can be used with: plain static segments, none differing only in case. */
  const { "routes/cafe": _cafe, ...PLAIN } = MANIFEST;
  const isPlain = spelledAsDeclared(PLAIN);
  const STATIC = { staticRouteIds: new Set(["routes/about"]) };
  const locate = canonicalLocations(PLAIN, STATIC);
  /**
   * The same routes plus one with a suffix (`:name.json`), which the quick test cannot be sure of, under a
   * path no generated URL reaches: every path is matched.
   */
  const matchEveryPath = canonicalLocations(
    { ...PLAIN, "routes/zz": { id: "routes/zz", parentId: "root", path: "zz/:name.json" } },
    STATIC,
  );

  test("paths that can only be canonical are told apart without matching", () => {
    expect(["/", "/about", "/items/AMS", "/Account", "/docs/a/b", "/nope"].map(isPlain)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(
      ["/About", "/account", "/about/", "/items/%61ms", "/items/a:b", "//", "/items/AbouT"].map(isPlain),
    ).toEqual([false, false, false, false, false, false, false]);
  });

  test("it cannot be sure with static segments that differ only in case, a basename, a suffix, or other characters", () => {
    const plain = (manifest: Record<string, ManifestRoute>, basename?: string) =>
      spelledAsDeclared({ root: { id: "root", path: "" }, ...manifest }, basename)("/about");
    expect(plain({ a: { id: "a", path: "about" } })).toBe(true);
    expect(plain({ a: { id: "a", path: "about" }, b: { id: "b", path: "About/x" } })).toBe(false);
    expect(plain({ a: { id: "a", path: "about" } }, "/app")).toBe(false);
    expect(plain({ a: { id: "a", path: "files/:name.json" } })).toBe(false);
    expect(plain({ a: { id: "a", path: "café" } })).toBe(false);
  });

  test("the quick test never hides a redirect, and remembered answers are the answers of matching", () => {
    const segment = fc.string({ unit: fc.constantFrom(..."aAbouthelpIitemsEN:%41/_-.~"), maxLength: 8 });
    const url = fc
      .tuple(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("", ".data", "/.data", "?x=1"),
      )
      .map(([segments, tail]) => new URL(`https://app.example/${segments.join("/")}${tail}`));
    fc.assert(
      fc.property(url, (target) => {
        const expected = matchEveryPath(target);
        if (isPlain(target.pathname) && !target.pathname.endsWith(".data")) expect(expected).toBeUndefined();
        expect(locate(target)).toBe(expected);
        // Remembered answers are the same answers.
        expect(locate(target)).toBe(expected);
      }),
      { numRuns: 3_000 },
    );
  });
});
