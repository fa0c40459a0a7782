/** `edge-platform/vite` (Node): the build's plugin and what vite.config.ts and react-router.config.ts read. */
export {
  APP_DIRECTORY,
  type AppUnderBuild,
  loadAppUnderBuild,
  type ProductConfig,
} from "../vite/app-under-build.ts";
export { cloudflareOptions, workerConfig } from "../vite/cloudflare-options.ts";
export { platformReactRouterConfig } from "../vite/react-router-config.ts";
export { edgePlatform } from "../vite/vite-plugin.ts";
