import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { RouteConfigEntry } from "@react-router/dev/routes";

/**
 * Which app the build builds: the product (`app/`, the default) or another app laid out the same way, such as
 * the platform's test fixture (`APP_DIRECTORY=tests/fixture/app`, `npm run build:fixture`). Read by
 * react-router.config.ts and vite.config.ts.
 */
export const APP_DIRECTORY = process.env.APP_DIRECTORY ?? "app";

type ProductConfig = typeof import("../app/product.config.ts");

/** The app's product configuration (`product.config.ts`) and route map (`routes.ts`). */
export async function loadAppUnderBuild(): Promise<ProductConfig & { routes: RouteConfigEntry[] }> {
  const load = (file: string) => import(/* @vite-ignore */ pathToFileURL(resolve(APP_DIRECTORY, file)).href);
  const [product, routes] = await Promise.all([load("product.config.ts"), load("routes.ts")]);
  return {
    STATIC_PAGES: product.STATIC_PAGES,
    EXTRA_ACTION_ORIGINS: product.EXTRA_ACTION_ORIGINS,
    routes: routes.default,
  };
}
