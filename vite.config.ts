import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [
    // WRANGLER_CONFIG is for bench/ssr.ts, which builds its baseline Worker (bench/bare) from the same app.
    cloudflare({ viteEnvironment: { name: "ssr" }, configPath: process.env.WRANGLER_CONFIG }),
    reactRouter(),
  ],
});
