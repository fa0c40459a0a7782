import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type Plugin, preview } from "vite";
import { LOCALE_COPIES_DIRECTORY, localeCopyPath } from "../visitor/locale-copies.ts";
import { LOCALE_COOKIE } from "../visitor/visitor.ts";
import type { AppUnderBuild } from "./app-under-build.ts";

/**
 * Whether the build writes other-language copies of the pre-rendered pages: several locales, a static page,
 * and the platform's Worker to serve them (`WRANGLER_CONFIG` names another deploy config and Worker, the
 * benchmarks' baseline in bench/bare, which serves none: cloudflare-options.ts).
 */
export function hasLocaleCopies(app: AppUnderBuild): boolean {
  return app.localeSettings.locales.length > 1 && app.STATIC_PAGES.length > 0 && !process.env.WRANGLER_CONFIG;
}

/** A page that takes longer than this to render at build time fails the build (React Router's own time-out). */
const RENDER_TIMEOUT_MS = 10_000;

/**
 * The pre-rendered pages in every language the product declares (docs/i18n.md, "Pre-rendered pages").
 * React Router pre-renders each static page once, for a request that names no language: the default. It
 * has no notion of a page per language (its pre-render paths are paths of routes), so once it is done this
 * renders each page again, in the same Vite preview server React Router uses (workerd, the Worker's real
 * bindings), with the locale cookie of each other language, and writes it where the Worker picks it
 * (visitor/locale-copies.ts). A copy is the page for everyone in that language: no time zone, no visitor
 * (entry.server.tsx renders a static route for its locale alone). Its page data is the default copy's: a
 * pre-rendered page's loader runs at build time, for no one, so its data must not depend on the language
 * (the texts do, through `useTexts`, in the document's language).
 */
export function localeCopies(app: AppUnderBuild): Plugin {
  return {
    name: "edge-platform:locale-copies",
    apply: "build",
    buildApp: {
      // After the builder's own buildApp: React Router's build and pre-rendering (assets-headers-file.ts).
      order: "post",
      async handler(builder) {
        if (!hasLocaleCopies(app)) return;
        const clientDirectory = builder.environments.client?.config.build.outDir;
        if (!clientDirectory) throw new Error("No client build to write the pages' other languages to");
        const server = await preview({
          configFile: builder.config.configFile,
          logLevel: "silent",
          preview: { port: 0, open: false },
        });
        try {
          const origin = server.resolvedUrls?.local[0];
          if (!origin) throw new Error("The preview server for the pages' other languages has no address");
          const [, ...others] = app.localeSettings.locales;
          for (const path of app.STATIC_PAGES) {
            for (const locale of others) {
              const html = await renderedCopy(origin, path, locale);
              const file = join(clientDirectory, localeCopyPath(path, locale), "index.html");
              await mkdir(dirname(file), { recursive: true });
              await writeFile(file, html);
            }
          }
          builder.config.logger.info(
            `${app.STATIC_PAGES.length * others.length} pre-rendered pages in ${others.join(", ")} ` +
              `(${LOCALE_COPIES_DIRECTORY}/)`,
          );
        } finally {
          await server.close();
        }
      },
    },
  };
}

/** The page as the Worker renders it for a visitor whose locale cookie names `locale`; the build fails otherwise. */
async function renderedCopy(origin: string, path: string, locale: string): Promise<string> {
  const response = await fetch(new URL(path, origin), {
    headers: { Cookie: `${LOCALE_COOKIE}=${locale}`, Accept: "text/html" },
    redirect: "manual",
    signal: AbortSignal.timeout(RENDER_TIMEOUT_MS),
  });
  const html = await response.text();
  if (response.status !== 200)
    throw new Error(`Pre-rendering ${path} in ${locale}: the Worker answered ${response.status}`);
  const lang = /<html\b[^>]*\blang="([^"]*)"/.exec(html)?.[1];
  if (lang !== locale)
    throw new Error(`Pre-rendering ${path} in ${locale}: the page says it is in ${JSON.stringify(lang)}`);
  return html;
}
