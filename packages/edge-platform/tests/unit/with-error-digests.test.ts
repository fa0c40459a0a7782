import { STATUS_CODES } from "node:http";
import { createStaticHandler, data, redirect, type ServerBuild } from "react-router";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { errorDigest } from "../../src/errors/digest";
import { withServerErrorDigests } from "../../src/errors/with-error-digests.server";
import { requestScope } from "../support/request-scope.ts";

type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];
type HandlerArgs = Parameters<NonNullable<RouteModule["loader"]>>[0];

function buildWith(module: RouteModule): ServerBuild {
  return {
    routes: { "routes/page": { id: "routes/page", path: "page", module } },
  } as unknown as ServerBuild;
}

function wrappedModule(module: RouteModule): RouteModule {
  const route = withServerErrorDigests(buildWith(module)).routes["routes/page"];
  if (!route) throw new Error("route missing");
  return route.module;
}

function args(): HandlerArgs {
  return { ...requestScope(), params: {}, pattern: "page" } as unknown as HandlerArgs;
}

/** What leaves a wrapped loader that throws `value`. */
function thrownThroughLoader(value: unknown): Promise<unknown> {
  const module = wrappedModule({
    default: () => null,
    loader: () => {
      throw value;
    },
  });
  return Promise.resolve()
    .then(() => module.loader?.(args()))
    .catch((thrown: unknown) => thrown);
}

/**
 * A reason phrase is the runtime's: workerd fills in a Response's status text when none is given, Node's fetch
 * does not. Here Node's own table (the same phrases) stands in for workerd's; the platform's suite reads the
 * phrases from workerd itself (tests/platform/application-error.test.ts).
 */
class WorkerdLikeResponse extends Response {
  constructor(body?: BodyInit | null, init?: ResponseInit) {
    const status = init?.status ?? 200;
    const phrase = STATUS_CODES[status] ?? (status >= 500 ? "Server Error" : "Client Error");
    super(body, { ...init, statusText: init?.statusText ?? phrase });
  }
}

beforeEach(() => {
  vi.stubGlobal("Response", WorkerdLikeResponse);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("withServerErrorDigests", () => {
  test("a loader's uncaught error leaves as a 500 carrying only its digest", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const error = new Error("secret-token");
    const module = wrappedModule({
      default: () => null,
      loader: () => {
        throw error;
      },
    });
    const thrown = await Promise.resolve(module.loader?.(args())).catch((value: unknown) => value);
    expect(thrown).toMatchObject({
      type: "DataWithResponseInit",
      data: { digest: errorDigest(error) },
      init: { status: 500 },
    });
    expect(JSON.stringify(thrown)).not.toContain("secret-token");
  });

  test("an action's uncaught error is guarded the same way", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const module = wrappedModule({
      default: () => null,
      action: async () => {
        throw new TypeError("bad");
      },
    });
    await expect(module.action?.(args())).rejects.toMatchObject({ init: { status: 500 } });
  });

  test("a middleware's uncaught error is guarded the same way", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const module = wrappedModule({
      default: () => null,
      middleware: [
        () => {
          throw new Error("mw");
        },
      ],
    });
    const middleware = module.middleware?.[0];
    await expect(middleware?.(args(), async () => new Response())).rejects.toMatchObject({
      init: { status: 500 },
    });
  });

  test("a thrown redirect passes through untouched", async () => {
    const response = redirect("/login");
    const module = wrappedModule({
      default: () => null,
      loader: () => {
        throw response;
      },
    });
    await expect(module.loader?.(args())).rejects.toBe(response);
  });

  test("returned data passes through untouched", async () => {
    const module = wrappedModule({ default: () => null, loader: () => ({ ok: true }) });
    await expect(module.loader?.(args())).resolves.toEqual({ ok: true });
  });

  test("a streamed promise that rejects is recorded, and reaches React Router as it was", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const error = new Error("streamed");
    const later = Promise.reject(error);
    const module = wrappedModule({ default: () => null, loader: () => ({ later }) });
    const result = (await module.loader?.(args())) as { later: Promise<unknown> };
    await expect(result.later).rejects.toBe(error);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(JSON.parse(String(log.mock.calls[0]?.[0]))).toMatchObject({
      digest: errorDigest(error),
      route: "/page",
    });
  });

  test("a route without a loader stays without one", () => {
    const module = wrappedModule({ default: () => null });
    expect(module.loader).toBeUndefined();
  });

  test("a route without an action refuses mutations with a plain 405 (its Allow is the headers step's)", async () => {
    // The Worker's headers step (headers.ts) writes `Allow: GET, HEAD` on it, end to end in
    // tests/platform/application-error.test.ts.
    const module = wrappedModule({ default: () => null });
    await expect(Promise.resolve().then(() => module.action?.(args()))).rejects.toMatchObject({
      type: "DataWithResponseInit",
      data: null,
      init: { status: 405, statusText: "Method Not Allowed" },
    });
  });
});

describe("thrown refusals keep their status's reason phrase", () => {
  test("React Router's assumption: a thrown data() without a status text becomes 'Internal Server Error'", async () => {
    // If an upgrade fixes this, withReasonPhrase can go.
    const handler = createStaticHandler([
      {
        id: "page",
        path: "/",
        loader: () => {
          throw data(null, { status: 404 });
        },
      },
    ]);
    const context = await handler.query(new Request("https://app.example/"));
    if (context instanceof Response) throw new Error("expected a context");
    expect(context.errors?.page).toMatchObject({ status: 404, statusText: "Internal Server Error" });
  });

  test("a wrapped loader's thrown data(null, { status: 404 }) reaches the boundary as Not Found", async () => {
    const module = wrappedModule({
      default: () => null,
      loader: () => {
        throw data(null, { status: 404 });
      },
    });
    const handler = createStaticHandler([
      { id: "page", path: "/", loader: (args) => module.loader?.(args as HandlerArgs) },
    ]);
    // The request's platform context, as packages/edge-platform/src/worker/app.ts sets it up: the wrapper records errors there.
    const context = await handler.query(new Request("https://app.example/"), {
      requestContext: requestScope().context,
    });
    if (context instanceof Response) throw new Error("expected a context");
    expect(context.errors?.page).toMatchObject({ status: 404, statusText: "Not Found" });
  });

  test("the status's headers and data are kept, and a given status text wins", async () => {
    const refused = await thrownThroughLoader(
      data("posted only", { status: 405, headers: { Allow: "POST" } }),
    );
    expect(refused).toMatchObject({
      data: "posted only",
      init: { status: 405, statusText: "Method Not Allowed", headers: { Allow: "POST" } },
    });
    const own = data(null, { status: 404, statusText: "Gone Fishing" });
    expect(await thrownThroughLoader(own)).toBe(own);
  });

  test("a thrown Response or data() with an error status and an empty text gets one; a redirect passes untouched", async () => {
    // A Response made without a text has the runtime's already: only an explicit "" is left to fill.
    const fixed = (await thrownThroughLoader(
      new Response("nope", { status: 403, statusText: "", headers: { "X-A": "b" } }),
    )) as Response;
    expect([fixed.status, fixed.statusText, fixed.headers.get("X-A"), await fixed.text()]).toEqual([
      403,
      "Forbidden",
      "b",
      "nope",
    ]);
    const moved = redirect("/login");
    expect(await thrownThroughLoader(moved)).toBe(moved);
    const refused = data(null, { status: 404, statusText: "" });
    expect(await thrownThroughLoader(refused)).toMatchObject({
      init: { status: 404, statusText: "Not Found" },
    });
  });
});
