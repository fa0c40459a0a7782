import { useContext, useEffect, useLayoutEffect } from "react";
import { UNSAFE_DataRouterContext, UNSAFE_FrameworkContext, useLocation } from "react-router";
import { loadNavigationPlatform, pageShown } from "./navigation-client";

/**
 * Loads and installs the navigation platform as the app hydrates: a layout effect runs in the hydration
 * commit itself, before any navigation the user can start. After a render showing another page (its title
 * and h1 are in the DOM by then), the platform announces it and moves focus.
 */
export function useNavigationPlatform(): void {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  const framework = useContext(UNSAFE_FrameworkContext);
  useLayoutEffect(() => {
    if (dataRouter && framework) {
      loadNavigationPlatform({
        router: dataRouter.router,
        manifest: framework.manifest,
        routeModules: framework.routeModules,
      });
    }
  }, [dataRouter, framework]);
  const { pathname } = useLocation();
  useEffect(() => pageShown(pathname), [pathname]);
}
