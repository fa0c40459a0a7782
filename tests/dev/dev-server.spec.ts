import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import {
  expect,
  isSameDocument,
  markDocument,
  recordCspViolations,
  test,
  waitForHydration,
} from "edge-platform/testing/playwright";
import { unstable_readConfig } from "wrangler";
import { A_STATIC_PAGE } from "../support/product-pages.ts";

const ROOT = resolve(import.meta.dirname, "../..");
/** Outside everything tsc and Biome check, inside what Vite serves: a module that cannot compile. */
const SCRATCH = join(ROOT, "node_modules/.cache/dev-server-test");
const BROKEN_MODULE = join(SCRATCH, "broken.ts");

test("the development policy adds the request's nonce to style-src, nothing else", async ({ request }) => {
  // Any page of the product's: in development every page is rendered per request.
  const response = await request.get(A_STATIC_PAGE);
  const policy = response.headers()["content-security-policy"] ?? "";
  const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeTruthy();
  expect(policy).toContain(`style-src 'self' 'nonce-${nonce}';`);
  expect(await response.text()).toContain(`<meta property="csp-nonce" nonce="${nonce}"/>`);
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
  // packages/edge-platform/src/vite/dev-d1-migrations.ts: a migration saved in the product's migrations folder is
  // applied to the dev Worker's local database at once, no restart. Each test writes one with a unique name and
  // table, and removes the file and every trace of it in the local database (its table, its record in
  // d1_migrations) afterwards, passed or failed. Any product with a D1 database (wrangler.toml) has them.
  const database = unstable_readConfig({ config: join(ROOT, "wrangler.toml") }).d1_databases[0];
  test.skip(!database, "the product declares no D1 database in wrangler.toml");
  const binding = database?.binding ?? "";
  const migrations = join(ROOT, database?.migrations_dir ?? "migrations");

  /** `wrangler d1 execute` on the local database the dev server uses, its rows as JSON. */
  async function execute(command: string): Promise<unknown> {
    const { stdout } = await promisify(execFile)(
      "npx",
      ["wrangler", "d1", "execute", binding, "--local", "--json", "--command", command],
      { cwd: ROOT },
    );
    return JSON.parse(stdout);
  }

  /** A migration that creates a table with one row. */
  function scratchMigration() {
    const id = randomUUID().replaceAll("-", "").slice(0, 12);
    const table = `dev_migration_test_${id}`;
    const note = `written by a migration ${id}`;
    const file = join(migrations, `9999_dev_server_test_${id}.sql`);
    return {
      name: basename(file),
      note,
      write: (create = "CREATE TABLE") =>
        writeFile(
          file,
          `${create} ${table} (note TEXT NOT NULL);\nINSERT INTO ${table} (note) VALUES ('${note}');\n`,
        ),
      /** The table's rows, or the error wrangler gave (no such table, before the migration is applied). */
      rows: () => execute(`SELECT note FROM ${table}`).then(JSON.stringify, (error: Error) => error.message),
      async remove() {
        await rm(file, { force: true });
        await execute(
          `DROP TABLE IF EXISTS ${table}; DELETE FROM d1_migrations WHERE name = '${basename(file)}';`,
        );
      },
    };
  }

  test("a new migration is applied without a restart; one that fails says why in the browser, and saved again fixed it applies and the page reloads", async ({
    page,
  }) => {
    // Two applications of a migration by wrangler, each a process of its own: 15 s alone, 56 s on a busy
    // machine, so three times the suite's 60 s. (A migration right the first time is the second half alone: a
    // test of its own cost three more wrangler processes and proved nothing more.)
    test.slow();
    const migration = scratchMigration();
    try {
      await page.goto(A_STATIC_PAGE);
      await waitForHydration(page);
      await migration.write("CREAT TABLE");
      const overlay = page.locator("vite-error-overlay");
      await expect(overlay.locator(".message-body")).toContainText(
        `Applying ${relative(ROOT, join(migrations, migration.name))} to the local DB failed`,
        { timeout: 60_000 },
      );
      await expect(overlay.locator(".message-body")).toContainText('near "CREAT": syntax error');
      await expect(overlay.locator(".message-body")).toContainText("Fix it and save it");

      await markDocument(page);
      await migration.write();
      await expect.poll(() => isSameDocument(page).catch(() => false), { timeout: 60_000 }).toBe(false);
      await expect(overlay).toHaveCount(0);
      expect(await migration.rows()).toContain(migration.note);
    } finally {
      await migration.remove();
    }
  });
});
