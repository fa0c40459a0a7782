import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Plugin } from "vite";
import { headersFileForAssets } from "./static-page-headers.ts";

/**
 * Once the pages are pre-rendered, writes the assets `_headers` file of the build, after the product's own
 * rules if it has a public/_headers: the hashed assets' policy, the base security headers for every asset and
 * the type of page data (packages/edge-platform/src/vite/static-page-headers.ts). A fixed set
 * of rules: pages get their policy from the Worker. Vite runs a "post" buildApp hook after the builder's
 * own buildApp, which is React Router's build with its pre-rendering around it.
 */
export function assetsHeadersFile(): Plugin {
  return {
    name: "edge-platform:assets-headers-file",
    apply: "build",
    buildApp: {
      order: "post",
      async handler(builder) {
        const clientDirectory = builder.environments.client?.config.build.outDir;
        if (!clientDirectory) throw new Error("No client build to write _headers for");
        const headersFile = join(clientDirectory, "_headers");
        // The product's own rules, when it has any, are public/_headers, which Vite copied into the build.
        const own = await readFile(headersFile, "utf8").catch((error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return "";
          throw error;
        });
        await writeFile(headersFile, headersFileForAssets(own));
      },
    },
  };
}
