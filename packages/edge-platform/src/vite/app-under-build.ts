import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { RouteConfigEntry } from "@react-router/dev/routes";

/**
 * Which app the build builds: the product (`app/`, the default) or another app laid out the same way, such as
 * the platform's test fixture (`APP_DIRECTORY=packages/edge-platform/fixture/app`, `npm run build:fixture`). Read by
 * react-router.config.ts (its `appDirectory`) and vite.config.ts.
 */
export const APP_DIRECTORY = process.env.APP_DIRECTORY ?? "app";

/** What a product tells the platform, in its `product.config.ts` (app/product.config.ts says what each means). */
export type ProductConfig = {
  /** Paths pre-rendered at build time: "static" pages (packages/edge-platform/docs/contract.md C5). */
  STATIC_PAGES: readonly string[];
  /** Exact origins besides the app's own that may post to actions (packages/edge-platform/docs/contract.md C6). */
  EXTRA_ACTION_ORIGINS: readonly string[];
  /**
   * The most JavaScript (bytes, gzip -9) a first visit to `/` may load: the product's tests hold it to this
   * (DEFAULT_FIRST_LOAD_BUDGET_BYTES when unset).
   */
  FIRST_LOAD_BUDGET_BYTES?: number;
};

/**
 * The first-load budget a product gets unless it sets its own (gzip): under what the Next.js 16 anchor loads
 * for the same page, with room for the product's own code beyond what React, React Router and the platform
 * need (packages/edge-platform/docs/PERFORMANCE.md, "First load", has those figures).
 */
export const DEFAULT_FIRST_LOAD_BUDGET_BYTES = 135 * 1024;

/** The app under build: its directory, its product configuration and its route map (`routes.ts`). */
export type AppUnderBuild = ProductConfig & { appDirectory: string; routes: RouteConfigEntry[] };

/** The app's product configuration (`product.config.ts`) and route map (`routes.ts`). */
export async function loadAppUnderBuild(): Promise<AppUnderBuild> {
  const appDirectory = resolve(APP_DIRECTORY);
  const load = (file: string) => import(/* @vite-ignore */ pathToFileURL(resolve(appDirectory, file)).href);
  const [product, routes] = await Promise.all([load("product.config.ts"), load("routes.ts")]);
  return {
    appDirectory,
    STATIC_PAGES: product.STATIC_PAGES,
    EXTRA_ACTION_ORIGINS: exactOrigins(product.EXTRA_ACTION_ORIGINS),
    routes: routes.default,
  };
}

/**
 * The product's extra allowed origins, checked when the build loads them: each must be an exact origin
 * (`https://preview.example.com`), as `isCrossSiteMutation` compares them, never a pattern or a URL.
 */
export function exactOrigins(origins: readonly string[]): string[] {
  return origins.map((origin) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || parsed.origin !== origin || parsed.hostname.includes("*")) {
      throw new Error(
        `EXTRA_ACTION_ORIGINS: ${origin} is not an exact origin such as https://preview.example.com`,
      );
    }
    return origin;
  });
}
