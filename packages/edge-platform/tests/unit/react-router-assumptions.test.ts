import {
  type UNSAFE_AssetsManifest as AssetsManifest,
  createMemoryRouter,
  createRequestHandler,
  type DataRouter,
  RouterContextProvider,
  type ServerBuild,
  UNSAFE_DataRouterContext,
  UNSAFE_FrameworkContext,
  UNSAFE_getTurboStreamSingleFetchDataStrategy,
} from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  cancelledByRouter,
  interceptNavigate,
  isAppDataResponse,
  onSubmission,
  opensLikePageData,
  routeAssets,
} from "../../src/navigation/react-router-adapter";
import { pageDataPath } from "../../src/single-fetch";

// One test per assumption packages/edge-platform/src/navigation/react-router-adapter.ts makes about React Router, each
// against the installed React Router itself: an upgrade that changes one fails the test named after it.
// The app's future flags that shape these (v8_middleware on, v8_trailingSlashAwareDataRequests off) are
// the ones react-router.config.ts sets.

const ROOT_LOADER_DATA = { from: "root" };

/** A two-route app as React Router's build would describe it, for its real server and client code. */
const manifest = {
  entry: { module: "/assets/entry.js", imports: ["/assets/shared.js"] },
  routes: {
    root: route("root", { path: "" }),
    "routes/home": route("routes/home", { index: true, parentId: "root" }),
    "routes/about": route("routes/about", { path: "about", parentId: "root" }),
    "routes/failing": route("routes/failing", { path: "failing", parentId: "root" }),
  },
  url: "/assets/manifest.js",
  version: "1",
  hmr: undefined,
  sri: undefined,
} as unknown as AssetsManifest;

function route(id: string, shape: { path?: string; index?: boolean; parentId?: string }) {
  return {
    id,
    ...shape,
    module: `/assets/${id.replace("routes/", "")}.js`,
    imports: ["/assets/shared.js"],
    css: [`/assets/${id.replace("routes/", "")}.css`],
    hasLoader: true,
    hasAction: false,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: id === "root",
  };
}

const serverBuild = {
  entry: {
    module: {
      default: () => new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } }),
    },
  },
  routes: {
    root: { id: "root", path: "", module: { default: () => null, loader: () => ROOT_LOADER_DATA } },
    "routes/home": {
      id: "routes/home",
      parentId: "root",
      index: true,
      module: { default: () => null, loader: () => ({ page: "home" }) },
    },
    "routes/about": {
      id: "routes/about",
      parentId: "root",
      path: "about",
      module: { default: () => null, loader: () => ({ page: "about" }) },
    },
    "routes/failing": {
      id: "routes/failing",
      parentId: "root",
      path: "failing",
      module: {
        default: () => null,
        loader: () => {
          throw new Error("loader failure");
        },
      },
    },
  },
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
const ORIGIN = "http://app.test";

function serve(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return handleRequest(new Request(input, init), new RouterContextProvider());
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
    expect(router.state.loaderData["routes/about"]).toEqual({ page: "about" });
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
  test("routeAssets reads a manifest route's code", () => {
    expect(routeAssets(manifest, "routes/about")).toEqual({
      modules: ["/assets/about.js", "/assets/shared.js"],
      styles: ["/assets/about.css"],
      hasLoader: true,
    });
    expect(routeAssets(manifest, "routes/unknown")).toBeUndefined();
  });

  test("router.navigate is an own, writable property that navigations go through", async () => {
    const router = createMemoryRouter(clientRoutes(), {
      initialEntries: ["/"],
      hydrationData: { loaderData: { root: {}, "routes/home": {} } },
    });
    expect(Object.getOwnPropertyDescriptor(router, "navigate")?.writable).toBe(true);
    const seen: unknown[] = [];
    interceptNavigate(router, (navigate, to, options) => {
      seen.push([to, options?.replace ?? false]);
      return navigate(to, options);
    });
    await router.navigate("/about", { replace: true });
    expect(seen).toEqual([["/about", true]]);
    expect(router.state.location.pathname).toBe("/about");
  });

  test("useSubmit calls the router.navigate it rendered with", async () => {
    // useSubmit reads router.navigate as it renders, so a form rendered before interceptNavigate goes
    // around it; what onSubmission relies on instead is that the router's state shows each submission once.
    const { useSubmit } = await import("react-router");
    expect(useSubmit.toString()).toMatch(/let routerNavigate = router\.navigate;/);
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
      { initialEntries: ["/"], hydrationData: { loaderData: { root: {}, "routes/home": {} } } },
    );
    let submissions = 0;
    onSubmission(router, () => submissions++);
    await router.navigate("/about", { formMethod: "post", formData: new FormData() });
    expect(submissions).toBe(1);
    await router.navigate("/");
    expect(submissions).toBe(1);
    await router.navigate("/about", { formMethod: "get", formData: new FormData() });
    expect(submissions).toBe(2);
    await router.revalidate();
    expect(submissions).toBe(2);
  });

  test("the framework contexts the hydration hook reads are exported", () => {
    expect(UNSAFE_DataRouterContext).toBeDefined();
    expect(UNSAFE_FrameworkContext).toBeDefined();
  });
});

describe("public API the navigation platform relies on", () => {
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

/** The client routes of the app above; loaders are supplied by the data strategy or `loader`. */
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
