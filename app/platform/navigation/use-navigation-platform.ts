import { useContext, useEffect } from "react";
import { UNSAFE_DataRouterContext, UNSAFE_FrameworkContext } from "react-router";
import { loadNavigationPlatform } from "./navigation-client";

/** Loads and installs the navigation platform once the app has hydrated (no client navigation happens before). */
export function useNavigationPlatform(): void {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  const framework = useContext(UNSAFE_FrameworkContext);
  useEffect(() => {
    if (dataRouter && framework) {
      loadNavigationPlatform({
        router: dataRouter.router,
        manifest: framework.manifest,
        routeModules: framework.routeModules,
      });
    }
  }, [dataRouter, framework]);
}
