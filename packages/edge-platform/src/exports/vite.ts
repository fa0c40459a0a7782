/** `edge-platform/vite` (Node): the build's plugin and what vite.config.ts and react-router.config.ts read. */
export {
  APP_DIRECTORY,
  type AppUnderBuild,
  loadAppUnderBuild,
  type ProductConfig,
} from "../vite/app-under-build.ts";
export { platformReactRouterConfig } from "../vite/react-router-config.ts";
export { cloudflareOptions, edgePlatform, workerConfig } from "../vite/vite-plugin.ts";
