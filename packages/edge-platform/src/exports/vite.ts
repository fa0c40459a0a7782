/** `edge-platform/vite` (Node): the build's plugin and what vite.config.ts and react-router.config.ts read. */
export {
  APP_DIRECTORY,
  type AppUnderBuild,
  loadAppUnderBuild,
  type ProductConfig,
} from "../vite/app-under-build.ts";
export { edgePlatform, workerConfig } from "../vite/vite-plugin.ts";
