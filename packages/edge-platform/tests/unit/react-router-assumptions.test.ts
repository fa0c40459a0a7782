import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import {
  type UNSAFE_AssetsManifest as AssetsManifest,
  type ClientInstrumentation,
  createMemoryRouter,
  createRequestHandler,
  type DataRouter,
  PrefetchPageLinks,
  type UNSAFE_RouteModules as RouteModules,
  RouterContextProvider,
  ScrollRestoration,
  type ServerBuild,
  UNSAFE_createClientRoutes,
  UNSAFE_DataRouterContext,
  UNSAFE_DataRouterStateContext,
  UNSAFE_FrameworkContext,
  UNSAFE_getTurboStreamSingleFetchDataStrategy,
  UNSAFE_LocationContext,
  UNSAFE_NavigationContext,
} from "react-router";
import { HydratedRouter } from "react-router/dom";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  cancelledByRouter,
  holdRouteModules,
  hydratedRouter,
  importRouteModules,
  isAppDataResponse,
  navigationLoading,
  navigationStarted,
  opensLikePageData,
  pageDataUrlFor,
  type RouterInternals,
  routeAssets,
  routeCodeFor,
  STYLESHEET_AHEAD,
} from "../../src/navigation/react-router-adapter";
import {
  keyNewHistoryEntry,
  RESTORE_SCROLL_SCRIPT,
  SCROLL_POSITIONS_STORAGE_KEY,
} from "../../src/scroll-restoration";
import { pageDataPath } from "../../src/single-fetch";

// One test per assumption packages/edge-platform/src/navigation/react-router-adapter.ts makes about React Router, each
// against the installed React Router itself: an upgrade that changes one fails the test named after it.
// The app's future flags that shape these (v8_middleware on, v8_trailingSlashAwareDataRequests off) are
// the ones react-router.config.ts sets.

const ROOT_LOADER_DATA = { from: "root" };
const ORIGIN = "http://app.test";

/**
 * An app as React Router's build would describe it, for its real server and client code: a root, pages, a
 * layout with pages under it, a layout whose `shouldRevalidate` says no (the glossary), a page with a
 * `clientLoader` and a page without a loader.
 */
type RouteSpec = {
  path?: string;
  index?: boolean;
  parentId?: string;
  loader?: "data" | "fails" | "none";
  clientLoader?: boolean;
  shouldRevalidate?: boolean;
};

const ROUTES: Record<string, RouteSpec> = {
  root: { path: "" },
  "routes/home": { index: true, parentId: "root" },
  "routes/about": { path: "about", parentId: "root" },
  "routes/failing": { path: "failing", parentId: "root", loader: "fails" },
  "routes/items": { path: "items", parentId: "root" },
  "routes/item": { path: ":id", parentId: "routes/items" },
  "routes/glossary": { path: "glossary", parentId: "root", shouldRevalidate: false },
  "routes/term": { path: ":slug", parentId: "routes/glossary" },
  "routes/client": { path: "client", parentId: "root", clientLoader: true },
  "routes/plain": { path: "plain", parentId: "root", loader: "none" },
};

const fileOf = (id: string) => id.replace("routes/", "");

const manifest = {
  entry: { module: "/assets/entry.js", imports: ["/assets/shared.js"] },
  routes: Object.fromEntries(
    Object.entries(ROUTES).map(([id, spec]) => [
      id,
      {
        id,
        path: spec.path,
        index: spec.index,
        parentId: spec.parentId,
        module: `/assets/${fileOf(id)}.js`,
        imports: ["/assets/shared.js"],
        css: [`/assets/${fileOf(id)}.css`],
        hasLoader: spec.loader !== "none",
        hasAction: false,
        hasClientAction: false,
        hasClientLoader: spec.clientLoader === true,
        hasClientMiddleware: false,
        hasErrorBoundary: id === "root",
        clientActionModule: undefined,
        clientLoaderModule: undefined,
        clientMiddlewareModule: undefined,
        hydrateFallbackModule: undefined,
      },
    ]),
  ),
  url: "/assets/manifest.js",
  version: "1",
  hmr: undefined,
  sri: undefined,
} as unknown as AssetsManifest;

function serverLoader(id: string, spec: RouteSpec) {
  if (spec.loader === "none") return undefined;
  if (spec.loader === "fails") {
    return () => {
      throw new Error("loader failure");
    };
  }
  if (id === "root") return () => ROOT_LOADER_DATA;
  return ({ params }: { params: Record<string, string | undefined> }) => ({ page: fileOf(id), params });
}

const serverBuild = {
  entry: {
    module: {
      // A document answers the state React Router hands the browser (HydratedRouter decodes it).
      default: (
        _request: Request,
        status: number,
        _headers: Headers,
        context: { serverHandoffStream?: ReadableStream },
      ) => new Response(context.serverHandoffStream ?? null, { status }),
    },
  },
  routes: Object.fromEntries(
    Object.entries(ROUTES).map(([id, spec]) => [
      id,
      {
        id,
        parentId: spec.parentId,
        path: spec.path,
        index: spec.index,
        module: { default: () => null, loader: serverLoader(id, spec) },
      },
    ]),
  ),
  assets: manifest,
  publicPath: "/",
  assetsBuildDirectory: "build/client",
  // The flags react-router.config.ts sets that change request handling, checked against React Router's own
  // type so a renamed or retired flag fails typecheck instead of being ignored.
  future: { v8_middleware: true, v8_trailingSlashAwareDataRequests: false } satisfies Partial<
    ServerBuild["future"]
  >,
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
} as unknown as ServerBuild;

const handleRequest = createRequestHandler(serverBuild, "production");

function serve(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return handleRequest(new Request(input, init), new RouterContextProvider());
}

/** The browser modules of the routes, as the framework's route-module cache holds them once loaded. */
function routeModulesOf(ids: string[] = Object.keys(ROUTES)): RouteModules {
  return Object.fromEntries(
    ids.map((id) => [
      id,
      {
        default: () => null,
        ...(ROUTES[id]?.shouldRevalidate === false ? { shouldRevalidate: () => false } : {}),
        ...(ROUTES[id]?.clientLoader
          ? { clientLoader: ({ serverLoader }: { serverLoader: () => Promise<unknown> }) => serverLoader() }
          : {}),
      },
    ]),
  ) as unknown as RouteModules;
}

const HOME_LOADER_DATA = { root: ROOT_LOADER_DATA, "routes/home": { page: "home", params: {} } };

/** The page's globals the browser code reads: Node's global stands in for window, with a location. */
function stubBrowser({ linkedStylesheets = "all" }: { linkedStylesheets?: "all" | Set<string> } = {}) {
  const reload = vi.fn();
  const location = Object.assign(new URL(`${ORIGIN}/`), { reload });
  const events = { addEventListener: () => {}, removeEventListener: () => {} };
  vi.stubGlobal("window", Object.assign(Object.create(globalThis), { location, origin: ORIGIN, ...events }));
  // Before a route renders, React Router looks for its stylesheets in the document and preloads the others.
  const stylePreloads: string[] = [];
  vi.stubGlobal("document", {
    createElement: () => ({ relList: { supports: () => true } }),
    querySelector: (selector: string) => {
      const href = /\[href="([^"]+)"\]/.exec(selector)?.[1] ?? "";
      return linkedStylesheets === "all" || linkedStylesheets.has(href) ? {} : null;
    },
    head: {
      appendChild: (link: { rel: string; href: string; onload?: () => void }) => {
        stylePreloads.push(link.href);
        queueMicrotask(() => link.onload?.());
      },
      contains: () => false,
    },
  });
  return { reload, stylePreloads };
}

/**
 * The browser's router as HydratedRouter builds it (the framework's client routes over a route-module cache,
 * single fetch), showing `/`, its page-data requests recorded.
 */
function frameworkRouter(
  routeModules: RouteModules,
  options: { instrumentations?: ClientInstrumentation[] } = {},
) {
  const requested: string[] = [];
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), ORIGIN);
    requested.push(url.pathname + url.search);
    return serve(url, init);
  });
  const routes = UNSAFE_createClientRoutes(
    manifest.routes,
    routeModules,
    { loaderData: HOME_LOADER_DATA, actionData: null, errors: null },
    true,
    false,
  );
  let router: DataRouter | undefined;
  router = createMemoryRouter(routes, {
    initialEntries: ["/"],
    hydrationData: { loaderData: HOME_LOADER_DATA },
    dataStrategy: UNSAFE_getTurboStreamSingleFetchDataStrategy(
      () => router as DataRouter,
      manifest,
      routeModules,
      true,
      undefined,
      false,
    ),
    instrumentations: options.instrumentations,
  });
  const internals: RouterInternals = { router, manifest, routeModules };
  return { router, requested, internals };
}

/**
 * What `element` renders on the server inside the contexts HydratedRouter gives its routes (framework,
 * router, navigation, location), over the router's current page.
 */
function renderedInFramework({ router, routeModules }: RouterInternals, element: ReactElement): string {
  return renderToStaticMarkup(
    createElement(
      UNSAFE_FrameworkContext.Provider,
      {
        value: {
          manifest,
          routeModules,
          future: {
            v8_passThroughRequests: false,
            v8_trailingSlashAwareDataRequests: false,
            v8_middleware: true,
          },
          ssr: true,
          isSpaMode: false,
          routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
        },
      },
      createElement(
        UNSAFE_DataRouterContext.Provider,
        { value: { router, navigator: router as never, static: false, basename: router.basename ?? "/" } },
        createElement(
          UNSAFE_DataRouterStateContext.Provider,
          { value: router.state },
          createElement(
            UNSAFE_NavigationContext.Provider,
            {
              value: {
                basename: router.basename ?? "/",
                navigator: router as never,
                static: false,
                future: {} as never,
                useTransitions: false,
              },
            },
            createElement(
              UNSAFE_LocationContext.Provider,
              { value: { location: router.state.location, navigationType: router.state.historyAction } },
              element,
            ),
          ),
        ),
      ),
    ),
  );
}

/** What React Router's PrefetchPageLinks renders for `page` on the router's current page. */
function prefetchPageLinks(internals: RouterInternals, page: string) {
  const html = renderedInFramework(internals, createElement(PrefetchPageLinks, { page }));
  const links = [...html.matchAll(/<link ([^>]*)\/?>/g)].map(([, attributes]) =>
    Object.fromEntries(
      [...(attributes ?? "").matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [
        name,
        (value ?? "").replaceAll("&amp;", "&"),
      ]),
    ),
  );
  return {
    data: links.filter((link) => link.as === "fetch").map((link) => link.href),
    modules: links.filter((link) => link.rel === "modulepreload").map((link) => link.href),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("React Router assumptions of the navigation adapter", () => {
  test("single-fetch URLs: the server answers a page's data at pageDataPath", async () => {
    for (const [page, data] of [
      ["/", { page: "home" }],
      ["/about", { page: "about" }],
    ] as const) {
      const response = await serve(`${ORIGIN}${pageDataPath(page)}`);
      expect(response.status, page).toBe(200);
      expect(await response.text(), page).toContain(data.page);
    }
  });

  test("single fetch requests page data through the global fetch, looked up at call time", async () => {
    const requested: string[] = [];
    // The client code reads window.location and revives values against window: Node's global stands in.
    vi.stubGlobal("window", Object.assign(Object.create(globalThis), { location: new URL(`${ORIGIN}/`) }));
    // The browser router's own data strategy, as HydratedRouter builds it, fetching from the server above.
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), ORIGIN);
      requested.push(`${init?.method ?? "GET"} ${url.pathname}`);
      return serve(url, init);
    });
    let router: DataRouter | undefined;
    // Framework routes' loaders call the single fetch they are handed (createClientRoutes does the same).
    const serverLoader = (_args: unknown, singleFetch?: unknown) => (singleFetch as () => unknown)();
    router = createMemoryRouter(clientRoutes(serverLoader), {
      initialEntries: ["/"],
      hydrationData: { loaderData: { root: ROOT_LOADER_DATA, "routes/home": { page: "home" } } },
      dataStrategy: UNSAFE_getTurboStreamSingleFetchDataStrategy(
        () => router as DataRouter,
        manifest,
        {},
        true,
        undefined,
        false,
      ),
    });
    await router.navigate("/about");
    expect(router.state.loaderData["routes/about"]).toEqual({ page: "about", params: {} });
    expect(requested).toEqual([`GET ${pageDataPath("/about")}`]);
  });

  test("a superseded navigation's page-data request is aborted through the signal single fetch hands fetch", async () => {
    const requests: { path: string; input: RequestInfo | URL; init?: RequestInit }[] = [];
    vi.stubGlobal("window", Object.assign(Object.create(globalThis), { location: new URL(`${ORIGIN}/`) }));
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), ORIGIN);
      requests.push({ path: url.pathname, input, init });
      // The first page's data never arrives: only the abort ends its request, as a browser's fetch does.
      if (url.pathname === pageDataPath("/about")) {
        return new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
        );
      }
      return serve(url, init);
    });
    let router: DataRouter | undefined;
    const serverLoader = (_args: unknown, singleFetch?: unknown) => (singleFetch as () => unknown)();
    router = createMemoryRouter(clientRoutes(serverLoader), {
      initialEntries: ["/"],
      hydrationData: { loaderData: { root: ROOT_LOADER_DATA, "routes/home": { page: "home" } } },
      dataStrategy: UNSAFE_getTurboStreamSingleFetchDataStrategy(
        () => router as DataRouter,
        manifest,
        {},
        true,
        undefined,
        false,
      ),
    });
    const first = router.navigate("/about");
    await vi.waitFor(() => expect(requests.map(({ path }) => path)).toContain(pageDataPath("/about")));
    const [about] = requests;
    expect(about && cancelledByRouter(about.input, about.init)).toBe(false);
    await router.navigate("/");
    await first;
    expect(about && cancelledByRouter(about.input, about.init)).toBe(true);
    expect(router.state.location.pathname).toBe("/");
    expect(router.state.navigation.state).toBe("idle");
  });

  test("single-fetch bodies are turbo-streams, which open with `[`", async () => {
    const body = new Uint8Array(await (await serve(`${ORIGIN}${pageDataPath("/about")}`)).arrayBuffer());
    expect(opensLikePageData(body[0])).toBe(true);
    expect(opensLikePageData("<".charCodeAt(0))).toBe(false);
  });

  test("the app's own error answers to data requests carry X-Remix-Response", async () => {
    const failing = await serve(`${ORIGIN}${pageDataPath("/failing")}`);
    expect(failing.status).toBe(500);
    expect(isAppDataResponse(failing)).toBe(true);
    const missing = await serve(`${ORIGIN}${pageDataPath("/no-such-page")}`);
    expect(missing.status).toBe(404);
    expect(isAppDataResponse(missing)).toBe(true);
    expect(isAppDataResponse(new Response("Bad gateway", { status: 502 }))).toBe(false);
  });

  // The real build's manifest is checked by packages/edge-platform/tests/platform/react-router-manifest.test.ts.
  test("manifest routes list module, imports and css", () => {
    expect(routeAssets(manifest, "routes/about")).toEqual({
      modules: ["/assets/about.js", "/assets/shared.js"],
      styles: ["/assets/about.css"],
    });
    expect(routeAssets(manifest, "routes/unknown")).toBeUndefined();
  });

  test("HydratedRouter leaves its router, manifest and route modules on window", async () => {
    stubBrowser();
    const documentAnswer = await serve(`${ORIGIN}/`);
    const routeModules = routeModulesOf(["root", "routes/home"]);
    const browser = window as unknown as Record<string, unknown>;
    Object.assign(browser, {
      history: { state: null, replaceState: () => {}, pushState: () => {}, go: () => {} },
      __reactRouterContext: {
        stream: documentAnswer.body,
        basename: "/",
        ssr: true,
        isSpaMode: false,
        future: {
          v8_passThroughRequests: false,
          v8_trailingSlashAwareDataRequests: false,
          v8_middleware: true,
        },
        routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
      },
      __reactRouterManifest: manifest,
      __reactRouterRouteModules: routeModules,
    });
    (globalThis.document as unknown as { defaultView: unknown }).defaultView = window;
    // Rendered outside React: it makes its router, then stops at its first hook. The first call waits for
    // the document's state to be decoded.
    const hydrate = () => (HydratedRouter as (props: object) => unknown)({});
    await (async () => {
      try {
        hydrate();
      } catch (thrown) {
        if (thrown instanceof Promise) await thrown;
      }
    })();
    // Its first hook, outside a render, is an error React reports on the console.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      hydrate();
    } catch {
    } finally {
      quiet.mockRestore();
    }
    const hydrated = hydratedRouter();
    expect(hydrated?.manifest).toBe(manifest);
    expect(hydrated?.routeModules).toBe(routeModules);
    expect(hydrated?.router.state.location.pathname).toBe("/");
    // Its routes are the framework's, over that route-module cache: the loaded root's, the others lazy.
    const [root] = hydrated?.router.routes ?? [];
    expect(root?.id).toBe("root");
    expect(root && componentOf(root)).toBe(routeModules.root?.default);
    expect(root?.children?.find((route) => route.id === "routes/about")?.lazy).toBeDefined();
  });

  test("a route module in the route-module cache is used as is", async () => {
    const { reload } = stubBrowser();
    const routeModules = routeModulesOf(["root", "routes/home"]);
    const About = () => null;
    const { router, internals } = frameworkRouter(routeModules);
    // Put there by the platform: React Router uses it, not the module its manifest names.
    routeModules["routes/about"] = { default: About } as unknown as RouteModules[string];
    await router.navigate("/about");
    expect(componentOf(router.state.matches.at(-1)?.route)).toBe(About);
    // importRouteModules runs a route's module and puts it there.
    const itemsModule = "data:text/javascript,export default function Items() { return null; }";
    (manifest.routes["routes/items"] as { module: string }).module = itemsModule;
    try {
      await importRouteModules(internals, "/items");
    } finally {
      (manifest.routes["routes/items"] as { module: string }).module = "/assets/items.js";
    }
    const Items = routeModules["routes/items"]?.default;
    expect(Items?.name).toBe("Items");
    await router.navigate("/items");
    expect(componentOf(router.state.matches.at(-1)?.route)).toBe(Items);
    expect(reload).not.toHaveBeenCalled();
  });

  test("a pending route module in the cache holds the navigation", async () => {
    const { reload } = stubBrowser();
    const { router, internals } = frameworkRouter(routeModulesOf(["root", "routes/home"]));
    holdRouteModules(internals, "/about");
    void router.navigate("/about", { replace: true });
    expect(await navigationStarted(router, "/about")).toEqual({ href: "/about", kind: "replace" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Still loading, never imported (in Node that import would fail, and React Router would reload).
    expect(navigationLoading(router, "/about")).toEqual({ href: "/about", kind: "replace" });
    expect(router.state.location.pathname).toBe("/");
    expect(reload).not.toHaveBeenCalled();
  });

  test("React Router adds no style preload for a stylesheet already linked", async () => {
    expect(STYLESHEET_AHEAD.rel).toBe("stylesheet");
    // The page's own stylesheets are linked, and About's ahead (STYLESHEET_AHEAD); the glossary's is not.
    const linked = new Set(["/assets/root.css", "/assets/home.css", "/assets/about.css"]);
    const { stylePreloads } = stubBrowser({ linkedStylesheets: linked });
    const routeModules = routeModulesOf(["root", "routes/home"]);
    const { router } = frameworkRouter(routeModules);
    Object.assign(routeModules, routeModulesOf(["routes/about", "routes/glossary"]));
    await router.navigate("/about");
    expect(stylePreloads).toEqual([]);
    await router.navigate("/glossary");
    expect(stylePreloads).toContain("/assets/glossary.css");
  });

  describe("the prefetch plan is React Router's", () => {
    const CASES: { from: string; to: string; data: string | undefined }[] = [
      { from: "/", to: "/about", data: "/about.data" },
      { from: "/", to: "/items?sort=name", data: "/items.data?sort=name" },
      { from: "/items/1", to: "/items/2?sort=name", data: "/items/2.data?sort=name" },
      // The glossary layout's shouldRevalidate says no: only the others' loaders run.
      {
        from: "/glossary/edge",
        to: "/glossary/worker",
        data: "/glossary/worker.data?_routes=root%2Croutes%2Fterm",
      },
      // A clientLoader asks for its own route's data: the page's request leaves it out.
      { from: "/", to: "/client", data: "/client.data?_routes=root" },
      // No loader of its own: the root's still runs.
      { from: "/", to: "/plain", data: "/plain.data" },
      // The page shown: nothing to fetch.
      { from: "/about", to: "/about", data: undefined },
    ];

    for (const { from, to, data } of CASES) {
      test(`from ${from} to ${to}: what PrefetchPageLinks renders, and the URL the navigation requests`, async () => {
        stubBrowser();
        const { router, requested, internals } = frameworkRouter(routeModulesOf());
        await router.navigate(from);
        requested.length = 0;
        const target = new URL(to, ORIGIN);
        const planned = pageDataUrlFor(internals, target);
        expect(planned).toBe(data);
        const rendered = prefetchPageLinks(internals, to);
        expect(rendered.data).toEqual(planned === undefined ? [] : [planned]);
        expect(routeCodeFor(internals, target).modules).toEqual(rendered.modules);
        if (planned === undefined) return;
        await router.navigate(to);
        expect(requested).toContain(planned);
      });
    }
  });
});

describe("public API the navigation platform relies on", () => {
  test("the navigate instrumentation runs before React Router starts each navigation, submissions included", async () => {
    const seen: object[] = [];
    let open: () => void = () => {};
    const gate: ClientInstrumentation = {
      router({ instrument }) {
        instrument({
          async navigate(go, info) {
            seen.push(info);
            await new Promise<void>((resolve) => {
              open = resolve;
            });
            await go();
          },
        });
      },
    };
    const router = createMemoryRouter(
      [
        {
          id: "root",
          path: "/",
          loader: () => null,
          children: [
            { id: "routes/home", index: true, loader: () => null },
            { id: "routes/about", path: "about", loader: () => null, action: () => ({ ok: true }) },
          ],
        },
      ],
      {
        initialEntries: ["/"],
        hydrationData: { loaderData: { root: {}, "routes/home": {} } },
        instrumentations: [gate],
      },
    );
    const navigation = router.navigate("/about", { replace: true });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Not started until the gate lets it.
    expect(router.state.navigation.state).toBe("idle");
    expect(router.state.location.pathname).toBe("/");
    open();
    await navigation;
    expect(router.state.location.pathname).toBe("/about");
    const submission = router.navigate("/about", { formMethod: "post", formData: new FormData() });
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    open();
    await submission;
    // Told where to and a form's method; not `replace`, which only React Router's state shows once it starts.
    expect(seen[0]).toMatchObject({ to: "/about" });
    expect(seen[0]).not.toHaveProperty("replace");
    expect(seen[0]).not.toHaveProperty("formMethod");
    expect(seen[1]).toMatchObject({ to: "/about", formMethod: "post" });
  });

  test("navigation.historyAction tells push, replace and back apart while the target loads", async () => {
    const actions: string[] = [];
    const router = createMemoryRouter(
      clientRoutes(() => new Promise((resolve) => setTimeout(resolve, 5))),
      {
        initialEntries: ["/"],
        hydrationData: { loaderData: { root: {}, "routes/home": {} } },
      },
    );
    router.subscribe((state) => {
      if (state.navigation.state === "loading") actions.push(state.navigation.historyAction);
    });
    await router.navigate("/about");
    await router.navigate("/", { replace: true });
    await router.navigate(-1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(actions).toEqual(["PUSH", "REPLACE", "POP"]);
  });
});

describe("scroll restoration (src/scroll-restoration.tsx)", () => {
  /** The script React Router's own `<ScrollRestoration>` renders into the document. */
  function reactRoutersScript(): string {
    const { internals } = frameworkRouter(routeModulesOf(["root", "routes/home"]));
    const html = renderedInFramework(internals, createElement(ScrollRestoration));
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1];
    if (!script) throw new Error(`no script in ${html}`);
    return script.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
  }

  /** Runs a document script in a browser of stubs: what it read, wrote and scrolled to. */
  function run(script: string, state: { key?: string } | null, saved: Record<string, number>) {
    const effects: { read: string[]; replaced: unknown[]; scrolledTo?: number } = { read: [], replaced: [] };
    const history = {
      state,
      replaceState(next: unknown) {
        effects.replaced.push(next);
        history.state = next as typeof state;
      },
    };
    const browserWindow = { history, scrollTo: (_x: number, y: number) => (effects.scrolledTo = y) };
    const sessionStorage = {
      getItem(key: string) {
        effects.read.push(key);
        return key === SCROLL_POSITIONS_STORAGE_KEY ? JSON.stringify(saved) : null;
      },
      removeItem() {},
    };
    new Function("window", "sessionStorage", "console", script)(browserWindow, sessionStorage, console);
    return effects;
  }

  test("React Router keeps positions under the platform's storage key, by the entry's history key", () => {
    const script = reactRoutersScript();
    expect(run(script, { key: "abc" }, { abc: 240 })).toEqual({
      read: [SCROLL_POSITIONS_STORAGE_KEY],
      replaced: [],
      scrolledTo: 240,
    });
    // The platform's script restores a known entry the same way.
    expect(run(RESTORE_SCROLL_SCRIPT, { key: "abc" }, { abc: 240 })).toEqual({
      read: [SCROLL_POSITIONS_STORAGE_KEY],
      replaced: [],
      scrolledTo: 240,
    });
  });

  test("React Router keys a new entry { key } in base 32, and the platform's client entry does the same later", () => {
    const ours = run(RESTORE_SCROLL_SCRIPT, null, {});
    const theirs = run(reactRoutersScript(), null, {});
    // Theirs writes a key and reads storage for it, which holds nothing for a new key; ours does neither.
    expect(theirs.replaced).toEqual([{ key: expect.stringMatching(/^[0-9a-v]+$/) }]);
    expect(theirs.scrolledTo).toBeUndefined();
    expect(ours).toEqual({ read: [], replaced: [] });
    const replaced: unknown[] = [];
    vi.stubGlobal("window", {
      history: { state: null, replaceState: (state: unknown) => replaced.push(state) },
    });
    keyNewHistoryEntry();
    expect(replaced).toEqual([{ key: expect.stringMatching(/^[0-9a-v]+$/) }]);
  });
});

/** The component a data route renders (React Router turns a route's `Component` into its `element`). */
function componentOf(route: { Component?: unknown; element?: unknown } | undefined): unknown {
  return route?.Component ?? (route?.element as { type?: unknown } | undefined)?.type;
}

/** Client routes of the app above, by hand; loaders are supplied by the data strategy or `loader`. */
function clientRoutes(loader: (args: unknown, singleFetch?: unknown) => unknown = () => null) {
  return [
    {
      id: "root",
      path: "/",
      loader,
      children: [
        { id: "routes/home", index: true, loader },
        { id: "routes/about", path: "about", loader },
        { id: "routes/failing", path: "failing", loader },
      ],
    },
  ];
}
