import { useContext, useLayoutEffect } from "react";
import { UNSAFE_DataRouterContext, UNSAFE_FrameworkContext } from "react-router";
import { loadNavigationPlatform } from "./navigation-client";

/**
 * Loads and installs the navigation platform as the app hydrates: a layout effect runs in the hydration
 * commit itself, before any navigation the user can start.
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
}
