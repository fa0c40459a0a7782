import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { freePort, type RawResponse, rawRequest } from "../../../src/testing/index.ts";
import {
  dataRequests,
  expect,
  isSameDocument,
  markDocument,
  recordCspViolations,
  test,
  waitForHydration,
} from "../../../src/testing/playwright";

// wrangler imported once the imports above have run, not among them: a static import would load Miniflare in this
// worker before the fixture's server changes how it grows (src/local-server/miniflare-arena-growth.ts).
const { unstable_readConfig } = await import("wrangler");

/**
 * The platform's side of `npm run dev` (React Router's dev server with the platform's Vite plugins, the Worker in
 * workerd), on the fixture as a product runs it: the hosts it answers, the development policy, the visitor headers,
 * Vite's error overlay, a route's own stylesheet, the `prefetch` prop handed to the platform's queue, the Workers
 * Cache in front of the Worker (src/vite/dev-workers-cache.ts; docs/caching.md) and the D1 migrations applied while
 * it runs (src/vite/dev-d1-migrations.ts). One dev server for the file, its tests in order, started with two names
 * allowed besides loopback (`LOCAL_ALLOWED_HOSTS`). A product's `npm run dev` script itself is run by the root's
 * tests/scripts/local-servers.test.ts and, in a product made from the template, by tests/scripts/create-product.test.ts.
 */
const FIXTURE = resolve(import.meta.dirname, "../../../fixture");
const WRANGLER_BIN = join(
  dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
  "bin/wrangler.js",
);
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
    {
      cwd: FIXTURE,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LOCAL_ALLOWED_HOSTS: "app.example, .preview.example" },
    },
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

test.describe("the dev server refuses hosts it does not serve (DNS rebinding)", () => {
  // Loopback names, IP addresses and the names in LOCAL_ALLOWED_HOSTS (the server above allows two) reach the
  // Worker; any other name is refused before it runs.
  const send = (host: string, lines: string[] = []): Promise<RawResponse> =>
    rawRequest(
      new URL(origin),
      [`GET / HTTP/1.1`, `Host: ${host}`, "Connection: close", ...lines, "", ""].join("\r\n"),
    );

  test("evil.example (with and without a port), evilapp.example and www.app.example get 403", async () => {
    for (const host of ["evil.example", "evil.example:5173", "evilapp.example", "www.app.example"]) {
      const response = await send(host);
      expect(response.status, host).toBe(403);
      expect(response.body, host).toMatch(/not allowed/);
    }
  });

  test("localhost, app.localhost, 127.0.0.1 and [::1] are served, and the names from LOCAL_ALLOWED_HOSTS", async () => {
    const port = new URL(origin).port;
    for (const hostname of ["localhost", "app.localhost", "127.0.0.1", "[::1]"]) {
      const response = await send(`${hostname}:${port}`);
      expect(response.status, hostname).toBe(200);
      expect(response.body, hostname).toContain("<!DOCTYPE html>");
    }
    for (const host of ["app.example", "pr-7.preview.example"]) {
      const response = await send(host, ["X-Forwarded-Proto: https"]);
      expect(response.status, host).toBe(200);
      expect(response.body, host).toContain("<!DOCTYPE html>");
    }
  });
});

test("the development policy adds the request's nonce to style-src, nothing else", async () => {
  // A pre-rendered page: in development every page is rendered per request.
  const response = await fetch(url("/about"));
  const policy = response.headers.get("content-security-policy") ?? "";
  const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeTruthy();
  expect(policy).toContain(`style-src 'self' 'nonce-${nonce}';`);
  expect(await response.text()).toContain(`<meta property="csp-nonce" nonce="${nonce}"/>`);
});

test("a visitor from anywhere: x-local-cf-timezone and x-local-cf-country are the request's cf, as under npm start", async () => {
  // The 404 page: rendered per request, for its visitor (a static page is the same for every visitor of a
  // language, in development as deployed).
  const tokyo = await fetch(url("/no-such-page"), {
    headers: { "x-local-cf-timezone": "Asia/Tokyo", "x-local-cf-country": "jp" },
  });
  expect(tokyo.status).toBe(404);
  expect(await tokyo.text()).toContain('data-time-zone="Asia/Tokyo"');
  const nowhere = await fetch(url("/no-such-page"), { headers: { "x-local-cf-timezone": "Mars/Olympus" } });
  expect(await nowhere.text()).not.toContain("Mars/Olympus");
});

test.describe("Vite's error overlay", () => {
  /** Outside everything tsc and Biome check (the fixture's build folder), inside what Vite serves. */
  const BROKEN_MODULE = join(FIXTURE, "build/dev-server-test/broken.ts");
  test.beforeAll(async () => {
    await mkdir(join(BROKEN_MODULE, ".."), { recursive: true });
    await writeFile(BROKEN_MODULE, "export const broken = ;\n");
  });
  test.afterAll(async () => {
    await rm(join(BROKEN_MODULE, ".."), { recursive: true, force: true });
  });

  test("a module that does not compile shows the overlay, styled", async ({ page, pageProblems }) => {
    // The module request fails (500) and so does its import: that is the provoked error.
    pageProblems.expect(/Failed to load resource: the server responded with a status of 500/);
    const cspViolations = await recordCspViolations(page);
    await page.goto(url("/"));
    await waitForHydration(page);

    await page.evaluate(
      (moduleUrl) => import(moduleUrl).catch(() => undefined),
      `/${relative(FIXTURE, BROKEN_MODULE)}`,
    );
    const overlay = page.locator("vite-error-overlay");
    await expect(overlay.locator(".message-body")).toContainText("broken.ts");
    await expect(overlay.locator(".message-body")).toContainText("Unexpected token");
    // The overlay's own stylesheet (in its shadow root) applied: a dark window over a dimmed page.
    await expect(overlay.locator(".window")).toHaveCSS("background-color", "rgb(24, 24, 24)");
    await expect(overlay.locator(".backdrop")).toHaveCSS("position", "fixed");
    await expect(overlay.locator(".window")).toBeVisible();

    expect(await cspViolations()).toEqual([]);
  });
});

test.describe("D1 migrations written while npm run dev runs", () => {
  // src/vite/dev-d1-migrations.ts: a migration saved in the migrations folder of a D1 binding (the fixture's `DB`,
  // wrangler.toml) is applied to the dev Worker's local database at once, no restart. The test writes one with a
  // unique name and table, and removes the file and every trace of it in the local database (its table, its record
  // in d1_migrations) afterwards, passed or failed.
  const database = unstable_readConfig({ config: join(FIXTURE, "wrangler.toml") }).d1_databases[0];
  const binding = database?.binding ?? "";
  const migrations = join(FIXTURE, database?.migrations_dir ?? "migrations");

  /**
   * `wrangler d1 execute` on the local database the dev server uses (in the fixture's `.wrangler/state`, named as
   * the migrations are), its rows as JSON. Wrangler's own bin, as src/vite/dev-d1-migrations.ts runs it: npx would
   * start an npm process first.
   */
  async function execute(command: string): Promise<unknown> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        WRANGLER_BIN,
        ...["d1", "execute", binding, "--local", "--json", "--command", command],
        ...["--config", join(FIXTURE, "wrangler.toml"), "--persist-to", join(FIXTURE, ".wrangler/state")],
      ],
      { cwd: FIXTURE },
    );
    return JSON.parse(stdout);
  }

  test("a new migration is applied without a restart; one that fails says why in the browser, and saved again fixed it applies and the page reloads", async ({
    page,
  }) => {
    // Two applications of a migration, then wrangler, a process of its own: 15 s alone, 56 s on a busy machine,
    // so three times the suite's 60 s.
    test.slow();
    expect(binding).toBe("DB");
    const id = randomUUID().replaceAll("-", "").slice(0, 12);
    const table = `dev_migration_test_${id}`;
    const note = `written by a migration ${id}`;
    const file = join(migrations, `9999_dev_server_test_${id}.sql`);
    const cleanUp = `DROP TABLE IF EXISTS ${table}; DELETE FROM d1_migrations WHERE name = '${basename(file)}';`;
    const write = (create: string) =>
      writeFile(
        file,
        `${create} ${table} (note TEXT NOT NULL);\nINSERT INTO ${table} (note) VALUES ('${note}');\n`,
      );
    let cleanedUp = false;
    try {
      await page.goto(url("/about"));
      await waitForHydration(page);
      await write("CREAT TABLE");
      const overlay = page.locator("vite-error-overlay");
      await expect(overlay.locator(".message-body")).toContainText(
        `Applying ${relative(FIXTURE, file)} to the local ${binding} failed`,
        { timeout: 60_000 },
      );
      await expect(overlay.locator(".message-body")).toContainText('near "CREAT": syntax error');
      await expect(overlay.locator(".message-body")).toContainText("Fix it and save it");

      await markDocument(page);
      await write("CREATE TABLE");
      await expect.poll(() => isSameDocument(page).catch(() => false), { timeout: 60_000 }).toBe(false);
      await expect(overlay).toHaveCount(0);
      await rm(file, { force: true });
      // The row the migration wrote, read and cleaned up by one wrangler process (each costs seconds of CPU).
      const [written] = (await execute(`SELECT note FROM ${table}; ${cleanUp}`)) as unknown[];
      cleanedUp = true;
      expect(JSON.stringify(written)).toContain(note);
    } finally {
      await rm(file, { force: true });
      if (!cleanedUp) await execute(cleanUp);
    }
  });
});

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
