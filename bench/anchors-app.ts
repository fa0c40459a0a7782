import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildAside } from "../scripts/build-aside.ts";

/**
 * `BENCH_BUILD=anchors` (bench/subject.ts): the anchors' app built on the platform, as a product team would
 * build it. Next.js's anchor is three small pages: `/` with links to a static `/about` and a dynamic `/now`
 * (the server's time), no header, no stylesheet. The reference product's pages with those paths also have a
 * header of six NavLinks, the navigation controls and their own stylesheets.
 * Measured beside the anchor, this build shows what the platform costs. The reference product's build adds
 * what its screens cost. The app is the template's (packages/edge-platform/template/app, what
 * `npm run create-product` starts from) with the anchors' three pages in its own markup. It is written to
 * build-anchors-app/app and built to build-anchors-app/build (both git-ignored).
 */
const ROOT = resolve(import.meta.dirname, "..");
const FOLDER = join(ROOT, "build-anchors-app");
export const ANCHORS_APP_BUILD = join(FOLDER, "build");

const PAGES: Record<string, string> = {
  "routes.ts": `import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("about", "routes/about.tsx"),
  route("now", "routes/now.tsx"),
] satisfies RouteConfig;
`,
  "routes/home.tsx": `import { Link } from "react-router";

export default function Home() {
  return (
    <>
      <h1>Home</h1>
      <p>
        This is the anchor reference app. It has a static home page, a static about page and a dynamic page that
        shows the server time.
      </p>
      <nav>
        <ul>
          <li>
            <Link to="/about">About</Link>
          </li>
          <li>
            <Link to="/now">Now</Link>
          </li>
        </ul>
      </nav>
    </>
  );
}
`,
  "routes/about.tsx": `import { Link } from "react-router";

export default function About() {
  return (
    <>
      <h1>About</h1>
      <p>
        This page is static. It is rendered once at build time where the framework supports it and served as-is
        afterwards.
      </p>
      <p>
        The reference app exists to measure framework overhead: first-load JavaScript, server throughput and
        client-side navigation time.
      </p>
      <p>It deliberately uses no CSS framework, no data fetching and no third-party components.</p>
      <nav>
        <Link to="/">Home</Link>
      </nav>
    </>
  );
}
`,
  "routes/now.tsx": `import { Link, useLoaderData } from "react-router";

export function loader() {
  return { now: new Date().toISOString() };
}

export default function Now() {
  const { now } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Now</h1>
      <p>
        Server time: <time dateTime={now}>{now}</time>
      </p>
      <nav>
        <Link to="/">Home</Link>
      </nav>
    </>
  );
}
`,
};

/** Writes the app and builds it; returns the build directory. */
export async function buildAnchorsApp(): Promise<string> {
  const app = join(FOLDER, "app");
  await rm(FOLDER, { recursive: true, force: true });
  await mkdir(FOLDER, { recursive: true });
  await cp(join(ROOT, "packages/edge-platform/template/app"), app, { recursive: true });
  await rm(join(app, "routes/home.tsx"));
  for (const [file, text] of Object.entries(PAGES)) await writeFile(join(app, file), text);
  const config = join(app, "product.config.ts");
  const pagesBefore = 'STATIC_PAGES: readonly string[] = ["/"]';
  const text = await readFile(config, "utf8");
  if (!text.includes(pagesBefore))
    throw new Error(`${config} no longer holds ${pagesBefore}: update this script`);
  await writeFile(config, text.replace(pagesBefore, 'STATIC_PAGES: readonly string[] = ["/", "/about"]'));
  console.log("Building the anchors' app on the platform (bench/anchors-app.ts)");
  await buildAside({ APP_DIRECTORY: app, BUILD_DIRECTORY: ANCHORS_APP_BUILD }, { quiet: true });
  return ANCHORS_APP_BUILD;
}
