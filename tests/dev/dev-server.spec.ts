import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { dataRequests, expect, test, waitForHydration } from "edge-platform/testing/playwright";
import { A_STATIC_PAGE } from "../support/product-pages.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** Outside everything tsc and Biome check, inside what Vite serves: a module that cannot compile. */
const SCRATCH = join(ROOT, "node_modules/.cache/dev-server-test");
const BROKEN_MODULE = join(SCRATCH, "broken.ts");

/** Records every CSP violation the document reports, from its first script on. */
async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

test("the development policy adds the request's nonce to style-src, nothing else", async ({ request }) => {
  // Any page of the product's: in development every page is rendered per request.
  const response = await request.get(A_STATIC_PAGE);
  const policy = response.headers()["content-security-policy"] ?? "";
  const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeTruthy();
  expect(policy).toContain(`style-src 'self' 'nonce-${nonce}';`);
  expect(await response.text()).toContain(`<meta property="csp-nonce" nonce="${nonce}"/>`);
});

test("a route's own stylesheet applies in development, on a document load and a client-side navigation", async ({
  page,
}) => {
  const cspViolations = await recordCspViolations(page);
  await page.goto("/about");
  await waitForHydration(page);
  // After hydration React Router drops its server-rendered CSS link: what styles the page now is the
  // <style> Vite injected from about.tsx's `import "./about.css"`.
  await expect(page.locator("style[data-vite-dev-id$='about.css']")).toHaveCount(1);
  await expect(page.locator(".about-platform")).toHaveCSS("border-inline-start-width", "4px");
  // The root's stylesheet is linked in development, not inlined (packages/edge-platform/docs/decisions/022-inline-critical-css.md).
  await expect(page.locator("head > link[rel=stylesheet][href*='app.css']")).toHaveCount(1);
  await expect(page.locator(".skip-link")).toHaveCSS("position", "absolute");

  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("link", { name: "About", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About");
  await expect(page.locator(".about-platform")).toHaveCSS("border-inline-start-color", "rgb(46, 125, 50)");

  expect(await cspViolations()).toEqual([]);
});

test("React Router's prefetch prop goes to the platform's queue in development, the same markup on both sides", async ({
  request,
  page,
}) => {
  // app/routes/glossary.tsx: `<Link prefetch="render">`, resolved to the platform's Link by edgePlatform()
  // in the Worker (the server's HTML) and in the browser (a mismatch would fail the test: a console error).
  const html = await (await request.get("/glossary")).text();
  expect(html.match(/data-prefetch="render"/g)?.length).toBeGreaterThan(1);
  const requests = dataRequests(page);
  await page.goto("/glossary");
  await waitForHydration(page);
  await expect(page.locator("ul.glossary a").first()).toHaveAttribute("data-prefetch", "render");
  await expect.poll(() => requests.filter((path) => path.startsWith("/glossary/")).length).toBeGreaterThan(1);
  // React Router's own prefetch never ran: none of its data <link> tags.
  await expect(page.locator('link[as="fetch"]')).toHaveCount(0);
});

test("a visitor from anywhere: x-local-cf-timezone and x-local-cf-country are the request's cf, as under npm start", async ({
  request,
}) => {
  // The 404 page, which every product has: rendered per request, for its visitor (a static page is the same
  // for every visitor of a language, in development as deployed).
  const tokyo = await request.get("/no-such-page", {
    headers: { "x-local-cf-timezone": "Asia/Tokyo", "x-local-cf-country": "jp" },
  });
  expect(tokyo.status()).toBe(404);
  expect(await tokyo.text()).toContain('data-time-zone="Asia/Tokyo"');
  const nowhere = await request.get("/no-such-page", { headers: { "x-local-cf-timezone": "Mars/Olympus" } });
  expect(await nowhere.text()).not.toContain("Mars/Olympus");
});

test.describe("the Workers Cache in front of the dev server's Worker", () => {
  // packages/edge-platform/src/vite/dev-workers-cache.ts; packages/edge-platform/docs/caching.md. /messages/latest is shared for 60 s and purged
  // by a post (app/routes/messages-latest.tsx); the dev server migrated the local database before starting.

  test("a shared page is a hit on repeat, and its copy hydrates with Vite's styles and HMR runtime", async ({
    page,
    request,
  }) => {
    await expect
      .poll(async () => (await request.get("/messages/latest")).headers()["cf-cache-status"])
      .toBe("HIT");
    // The copy keeps the nonce it was rendered with, Vite's styles and HMR runtime need it (shared-pages.ts).
    const copy = await request.get("/messages/latest");
    const nonce = /script-src 'nonce-([^']+)'/.exec(copy.headers()["content-security-policy"] ?? "")?.[1];
    expect(await copy.text()).toContain(`<meta property="csp-nonce" nonce="${nonce}"/>`);

    const cspViolations = await recordCspViolations(page);
    const response = await page.goto("/messages/latest");
    expect(response?.headers()["cf-cache-status"]).toBe("HIT");
    await waitForHydration(page);
    await expect(page.locator(".skip-link")).toHaveCSS("position", "absolute");
    await page.getByRole("link", { name: "About", exact: true }).click();
    await expect(page.locator(".about-platform")).toHaveCSS("border-inline-start-width", "4px");
    expect(await cspViolations()).toEqual([]);
  });

  test("an edited shared route is fresh on the next reload, never a copy older code rendered", async ({
    page,
    request,
  }) => {
    const file = join(ROOT, "app/routes/messages-latest.tsx");
    const original = await readFile(file, "utf8");
    const edited = original.replace('heading: "Latest messages"', 'heading: "Latest messages, edited"');
    expect(edited).not.toBe(original);
    const heading = async () =>
      /<h1>([^<]*)<\/h1>/.exec(await (await request.get("/messages/latest")).text())?.[1];
    await expect
      .poll(async () => (await request.get("/messages/latest")).headers()["cf-cache-status"])
      .toBe("HIT");
    try {
      await writeFile(file, edited);
      // The copy is shared for 60 s: without the edit emptying the cache, it would be answered until then.
      await expect.poll(heading, { timeout: 10_000 }).toBe("Latest messages, edited");
      // And the edited page hydrates with the edited modules: a mismatch is a console error (pageProblems).
      await page.goto("/messages/latest");
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Latest messages, edited");
    } finally {
      await writeFile(file, original);
    }
    await expect.poll(heading, { timeout: 10_000 }).toBe("Latest messages");
  });

  test("Vite's modules and per-request pages pass by the cache", async ({ request }) => {
    expect((await request.get("/@vite/client")).headers()["cf-cache-status"]).toBeUndefined();
    // A page rendered per request is the gateway's answer: it never reaches the cache.
    expect((await request.get("/messages")).headers()["cf-cache-status"]).toBeUndefined();
    // A client cannot name the purge address the Worker is given, nor skip the cache.
    await expect
      .poll(async () => (await request.get("/messages/latest")).headers()["cf-cache-status"])
      .toBe("HIT");
    const forged = await request.get("/messages/latest", {
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
    expect(forged.headers()["cf-cache-status"]).toBe("HIT");
    expect(forged.headers()["content-language"]).toBe("en");
    // A post naming an address that answers nothing still purges through the dev server's own: the poster
    // is sent to the page itself, not to a `?fresh=` address no copy answers (what a failed purge does).
    const baseURL = new URL(forged.url()).origin;
    const post = await request.post("/messages", {
      headers: { Origin: baseURL, "x-edge-platform-dev-cache-purge": "http://127.0.0.1:9/purge" },
      form: { name: "Forger", text: "purged the right way", submissionId: crypto.randomUUID() },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(303);
    expect(post.headers().location).toBe("/messages");
  });

  test("one copy per negotiated language, as deployed", async ({ request }) => {
    const path = `/messages/latest?languages=${Math.random().toString(36).slice(2, 10)}`;
    const visit = async (language: string) => {
      const response = await request.get(path, { headers: { "Accept-Language": language } });
      const lang = /<html lang="([^"]+)"/.exec(await response.text())?.[1];
      return [response.headers()["cf-cache-status"], response.headers()["content-language"], lang];
    };
    expect(await visit("ja")).toEqual(["MISS", "ja", "ja"]);
    expect(await visit("ar")).toEqual(["MISS", "ar", "ar"]);
    expect(await visit("ja-JP,ja;q=0.9,en;q=0.8")).toEqual(["HIT", "ja", "ja"]);
  });

  test("a post purges the shared page: the poster and the next visitor see the new message", async ({
    page,
    browser,
  }) => {
    const text = `posted in development ${Math.random().toString(36).slice(2, 10)}`;
    await page.goto("/messages/latest");
    await page.goto("/messages/latest");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Post a message" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Developer");
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Post message" }).click();
    await expect(page.getByRole("status").getByText("Message posted.")).toBeVisible();
    await page.goto("/messages/latest");
    await expect(page.getByRole("list", { name: "Latest messages" }).getByText(text)).toBeVisible();
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    const response = await visitorPage.goto("/messages/latest");
    expect(response?.headers()["cf-cache-status"]).toBe("HIT");
    await expect(visitorPage.getByRole("list", { name: "Latest messages" }).getByText(text)).toBeVisible();
    await visitor.close();
  });
});

test.describe("Vite's error overlay", () => {
  test.beforeAll(async () => {
    await mkdir(SCRATCH, { recursive: true });
    await writeFile(BROKEN_MODULE, "export const broken = ;\n");
  });
  test.afterAll(async () => {
    await rm(SCRATCH, { recursive: true, force: true });
  });

  test("a module that does not compile shows the overlay, styled", async ({ page, pageProblems }) => {
    // The module request fails (500) and so does its import: that is the provoked error.
    pageProblems.expect(/Failed to load resource: the server responded with a status of 500/);
    const cspViolations = await recordCspViolations(page);
    await page.goto("/");
    await waitForHydration(page);

    const url = `/${relative(ROOT, BROKEN_MODULE)}`;
    await page.evaluate((moduleUrl) => import(moduleUrl).catch(() => undefined), url);

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
  // packages/edge-platform/src/vite/dev-d1-migrations.ts: a migration saved in migrations/ is applied to the
  // dev Worker's local database at once, no restart. Each test writes one with a unique name and table, and
  // removes the file and every trace of it in the local database (its table, its message, its record in
  // d1_migrations) afterwards, passed or failed.

  /** A migration that creates a table and, through it, posts a message /messages then shows. */
  function scratchMigration() {
    const id = randomUUID().replaceAll("-", "").slice(0, 12);
    const table = `dev_migration_test_${id}`;
    const note = `written by a migration ${id}`;
    const file = join(ROOT, "migrations", `9999_dev_server_test_${id}.sql`);
    const sql = (create: string) =>
      `${create} ${table} (note TEXT NOT NULL);\nINSERT INTO ${table} (note) VALUES ('${note}');\n` +
      `INSERT INTO messages (submission_id, name, text) SELECT 'dev-migration-${id}', 'Migration', note FROM ${table};\n`;
    return {
      name: basename(file),
      note,
      write: (create = "CREATE TABLE") => writeFile(file, sql(create)),
      async remove() {
        await rm(file, { force: true });
        await promisify(execFile)(
          "npx",
          [
            "wrangler",
            "d1",
            "execute",
            "DB",
            "--local",
            "--command",
            `DELETE FROM messages WHERE submission_id = 'dev-migration-${id}'; DROP TABLE IF EXISTS ${table}; DELETE FROM d1_migrations WHERE name = '${basename(file)}';`,
          ],
          { cwd: ROOT },
        );
      },
    };
  }

  test("a new migration is applied without a restart: the next request finds its table", async ({
    request,
  }) => {
    const migration = scratchMigration();
    try {
      await migration.write();
      // The request waits while the migration is applied; polled only because the watcher's event comes a
      // moment after the write.
      await expect
        .poll(async () => (await request.get("/messages")).text(), { timeout: 60_000 })
        .toContain(migration.note);
    } finally {
      await migration.remove();
    }
  });

  test("a failing migration says why in the browser; saved again fixed, it applies and the page reloads", async ({
    page,
  }) => {
    // Two applications of a migration by wrangler, each a process of its own: 15 s alone, 56 s on a busy
    // machine, so three times the suite's 60 s.
    test.slow();
    const migration = scratchMigration();
    try {
      await page.goto("/messages");
      await waitForHydration(page);
      await migration.write("CREAT TABLE");
      const overlay = page.locator("vite-error-overlay");
      await expect(overlay.locator(".message-body")).toContainText(
        `Applying migrations/${migration.name} to the local DB failed`,
        {
          timeout: 60_000,
        },
      );
      await expect(overlay.locator(".message-body")).toContainText('near "CREAT": syntax error');
      await expect(overlay.locator(".message-body")).toContainText("Fix it and save it");

      await migration.write();
      await expect(page.getByRole("listitem").filter({ hasText: migration.note })).toBeVisible({
        timeout: 60_000,
      });
      await expect(overlay).toHaveCount(0);
    } finally {
      await migration.remove();
    }
  });
});
