import { type ChildProcess, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { freePort } from "../../../src/testing/index.ts";
import {
  dataRequests,
  expect,
  recordCspViolations,
  test,
  waitForHydration,
} from "../../../src/testing/playwright";

/**
 * The platform's side of `npm run dev` (React Router's dev server with the platform's Vite plugins, the Worker in
 * workerd), on the fixture as a product runs it: a route's own stylesheet, the `prefetch` prop handed to the
 * platform's queue, and the Workers Cache in front of the Worker (src/vite/dev-workers-cache.ts; docs/caching.md).
 * One dev server for the file, its tests in order. (A product's own checks of `npm run dev`, whatever its pages:
 * the root's tests/dev.)
 */
const FIXTURE = resolve(import.meta.dirname, "../../../fixture");
/** A dev server's first start compiles and optimises dependencies: on a busy two-core machine, a minute. */
const DEV_SERVER_START_MS = 120_000;

let devServer: ChildProcess | undefined;
let origin = "";
let printed = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(DEV_SERVER_START_MS + 10_000);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // The fixture's `npm run dev`, in a process group of its own so that afterAll stops all of it.
  devServer = spawn(
    process.execPath,
    [
      "../src/vite/react-router-cli-run.ts",
      "dev",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--strictPort",
    ],
    { cwd: FIXTURE, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  devServer.stdout?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  devServer.stderr?.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  await expect
    .poll(
      async () => {
        if (devServer?.exitCode !== null) throw new Error(`the dev server exited:\n${printed}`);
        return (await fetch(`${origin}/`).catch(() => undefined))?.status;
      },
      { timeout: DEV_SERVER_START_MS, intervals: [500] },
    )
    .toBe(200);
});

test.afterAll(() => {
  if (devServer?.pid) process.kill(-devServer.pid, "SIGTERM");
});

const url = (path: string) => `${origin}${path}`;

test("a route's own stylesheet applies in development, on a document load and a client-side navigation", async ({
  page,
}) => {
  const cspViolations = await recordCspViolations(page);
  await page.goto(url("/about"));
  await waitForHydration(page);
  // After hydration React Router drops its server-rendered CSS link: what styles the page now is the <style>
  // Vite injected from about.tsx's `import "./about.css"`.
  await expect(page.locator("style[data-vite-dev-id$='about.css']")).toHaveCount(1);
  await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");
  // The root's stylesheet is linked in development, not inlined (docs/decisions/022-inline-critical-css.md).
  await expect(page.locator("head > link[rel=stylesheet][href*='app.css']")).toHaveCount(1);
  await expect(page.locator(".skip-link")).toHaveCSS("position", "absolute");

  await page.goto(url("/"));
  await waitForHydration(page);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "About", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");

  expect(await cspViolations()).toEqual([]);
});

test("React Router's prefetch prop goes to the platform's queue in development, the same markup on both sides", async ({
  page,
}) => {
  // fixture/app/routes/links.tsx: `<Link prefetch="render">`, resolved to the platform's Link in the Worker (the
  // server's HTML) and in the browser (a mismatch would fail the test: a console error).
  const html = await (await fetch(url("/links"))).text();
  expect(html).toContain('data-prefetch="render"');
  const requests = dataRequests(page);
  await page.goto(url("/links"));
  await waitForHydration(page);
  await expect(page.locator('a[href="/glossary/edge"]')).toHaveAttribute("data-prefetch", "render");
  await expect.poll(() => requests).toContain("/glossary/edge.data");
  // React Router's own prefetch never ran: none of its data <link> tags.
  await expect(page.locator('link[as="fetch"]')).toHaveCount(0);
});

test.describe("the Workers Cache in front of the dev server's Worker", () => {
  // fixture/app/routes/slow-shared.tsx is shared for 60 s, tagged "slow"; /slow/purge purges the tag.

  test("a shared page is a hit on repeat, and its copy hydrates with Vite's styles and HMR runtime", async ({
    page,
  }) => {
    await expect
      .poll(async () => (await fetch(url("/slow/shared"))).headers.get("cf-cache-status"))
      .toBe("HIT");
    // The copy keeps the nonce it was rendered with: Vite's styles and HMR runtime need it (shared-pages.ts).
    const copy = await fetch(url("/slow/shared"));
    const nonce = /script-src 'nonce-([^']+)'/.exec(copy.headers.get("content-security-policy") ?? "")?.[1];
    expect(await copy.text()).toContain(`<meta property="csp-nonce" nonce="${nonce}"/>`);

    const cspViolations = await recordCspViolations(page);
    const response = await page.goto(url("/slow/shared"));
    expect(response?.headers()["cf-cache-status"]).toBe("HIT");
    await waitForHydration(page);
    await expect(page.locator(".skip-link")).toHaveCSS("position", "absolute");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "About", exact: true })
      .click();
    await expect(page.locator(".about-lead")).toHaveCSS("font-style", "italic");
    expect(await cspViolations()).toEqual([]);
  });

  test("an edited shared route is fresh on the next reload, never a copy older code rendered", async ({
    page,
  }) => {
    const file = resolve(FIXTURE, "app/routes/slow-shared.tsx");
    const original = await readFile(file, "utf8");
    const edited = original.replace("<h1>Shared</h1>", "<h1>Shared, edited</h1>");
    expect(edited).not.toBe(original);
    await expect
      .poll(async () => (await fetch(url("/slow/shared"))).headers.get("cf-cache-status"))
      .toBe("HIT");
    const heading = async () =>
      /<h1>([^<]*)<\/h1>/.exec(await (await fetch(url("/slow/shared"))).text())?.[1];
    try {
      await writeFile(file, edited);
      // The copy is shared for 60 s: without the edit emptying the cache, it would be answered until then.
      await expect.poll(heading).toBe("Shared, edited");
      // And the edited page hydrates with the edited modules: a mismatch is a console error (pageProblems). Loaded
      // only now: a page still loading when Vite's update arrives meets React Router's HMR runtime before its
      // router exists (`__reactRouterDataRouter is not defined`), which is the dev server's race, not this.
      await page.goto(url("/slow/shared"));
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shared, edited");
    } finally {
      await writeFile(file, original);
    }
    await expect.poll(heading).toBe("Shared");
  });

  test("Vite's modules and per-request pages pass by the cache; a client names no cache address", async () => {
    expect((await fetch(url("/@vite/client"))).headers.get("cf-cache-status")).toBeNull();
    // A page rendered per request is the gateway's answer: it never reaches the cache.
    expect((await fetch(url("/now"))).headers.get("cf-cache-status")).toBeNull();
    await expect
      .poll(async () => (await fetch(url("/slow/shared"))).headers.get("cf-cache-status"))
      .toBe("HIT");
    const forged = await fetch(url("/slow/shared"), {
      headers: {
        "Accept-Language": "en",
        "x-edge-platform-dev-cache-origin": "guess",
        "x-edge-platform-dev-cache-purge": "http://x/",
        "x-edge-platform-dev-cache-fetch": "http://127.0.0.1:9/fetch",
        // Neither the emulation's own headers (a fill for Arabic) nor the visitor the gateway hands on.
        "x-edge-platform-workers-cache-props": JSON.stringify({ locale: "ar" }),
        "x-edge-platform-visitor": JSON.stringify({ locale: "ar", timeZone: "Asia/Tokyo" }),
      },
    });
    expect(forged.headers.get("cf-cache-status")).toBe("HIT");
    expect(forged.headers.get("content-language")).toBe("en");
    // A post naming an address that answers nothing still purges through the dev server's own: the writer is
    // sent to the page itself, not to a `?fresh=` address no copy answers (what a failed purge does).
    const post = await fetch(url("/slow/purge"), {
      method: "POST",
      headers: { Origin: origin, "x-edge-platform-dev-cache-purge": "http://127.0.0.1:9/purge" },
      body: new URLSearchParams({ by: "tag" }),
      redirect: "manual",
    });
    expect(post.status).toBe(303);
    expect(post.headers.get("location")).toBe("/slow/cached");
  });

  test("one copy per negotiated language, as deployed", async () => {
    const path = `/slow/shared?languages=${Math.random().toString(36).slice(2, 10)}`;
    const visit = async (language: string) => {
      const response = await fetch(url(path), { headers: { "Accept-Language": language } });
      const lang = /<html lang="([^"]+)"/.exec(await response.text())?.[1];
      return [response.headers.get("cf-cache-status"), response.headers.get("content-language"), lang];
    };
    expect(await visit("ar")).toEqual(["MISS", "ar", "ar"]);
    expect(await visit("en")).toEqual(["MISS", "en", "en"]);
    expect(await visit("ar-EG,ar;q=0.9,en;q=0.8")).toEqual(["HIT", "ar", "ar"]);
  });

  test("a purge by tag reaches the copy: the next visitor gets a page rendered after it", async () => {
    const renderedAt = async () => {
      const response = await fetch(url("/slow/shared"));
      const time = /<time dateTime="([^"]+)"/.exec(await response.text())?.[1] ?? "";
      return { status: response.headers.get("cf-cache-status"), time };
    };
    await expect.poll(async () => (await renderedAt()).status).toBe("HIT");
    const before = await renderedAt();
    const post = await fetch(url("/slow/purge"), {
      method: "POST",
      headers: { Origin: origin },
      body: new URLSearchParams({ by: "tag" }),
      redirect: "manual",
    });
    expect(post.status).toBe(303);
    const after = await renderedAt();
    expect(after.status).not.toBe("HIT");
    expect(Date.parse(after.time)).toBeGreaterThan(Date.parse(before.time));
  });
});
