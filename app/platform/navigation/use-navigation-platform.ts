import { useContext, useEffect } from "react";
import { UNSAFE_DataRouterContext, UNSAFE_FrameworkContext } from "react-router";
import { installNavigationPlatform } from "./navigation-platform";

/** Installs the navigation platform once the app has hydrated (no client navigation can happen before). */
export function useNavigationPlatform(): void {
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  const framework = useContext(UNSAFE_FrameworkContext);
  useEffect(() => {
    if (dataRouter && framework) {
      installNavigationPlatform({
        router: dataRouter.router,
        manifest: framework.manifest,
        routeModules: framework.routeModules,
      });
    }
  }, [dataRouter, framework]);
}
