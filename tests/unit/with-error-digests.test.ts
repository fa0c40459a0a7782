import { redirect, type ServerBuild } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import { errorDigest } from "../../app/platform/errors/digest";
import { withServerErrorDigests } from "../../app/platform/errors/with-error-digests.server";
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

afterEach(() => {
  vi.restoreAllMocks();
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

  test("routes without handlers stay without them", () => {
    const module = wrappedModule({ default: () => null });
    expect(module.loader).toBeUndefined();
    expect(module.action).toBeUndefined();
  });
});
