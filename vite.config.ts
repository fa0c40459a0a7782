import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { edgePlatform, loadAppUnderBuild, workerConfig } from "edge-platform/vite";
import { defineConfig } from "vite";

// The product's choices (app/product.config.ts) and routes, or the platform's test fixture's (APP_DIRECTORY).
const app = await loadAppUnderBuild();

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      // bench/ssr.ts builds its baseline (bench/bare: a plain React Router Worker, static pages served as
      // plain assets) from the same app with its own wrangler config.
      ...(process.env.WRANGLER_CONFIG
        ? { configPath: process.env.WRANGLER_CONFIG }
        : { config: workerConfig(app) }),
    }),
    reactRouter(),
    edgePlatform(app),
  ],
});
