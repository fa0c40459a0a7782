import type { Config } from "@react-router/dev/config";
import { loadAppUnderBuild, platformReactRouterConfig } from "edge-platform/vite";

// What the platform needs of React Router, with this app's choices (app/product.config.ts).
export default platformReactRouterConfig(await loadAppUnderBuild()) satisfies Config;
