import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { cloudflareOptions, edgePlatform, loadAppUnderBuild } from "edge-platform/vite";
import { defineConfig } from "vite";

// This app's choices (app/product.config.ts) and routes, which the platform's plugins are configured with.
const app = await loadAppUnderBuild();

export default defineConfig({
  plugins: [cloudflare(cloudflareOptions(app)), reactRouter(), edgePlatform(app)],
});
