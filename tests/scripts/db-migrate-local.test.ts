import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { ROOT, runCommand } from "./run-script";

// The first `npm run dev` / `npm start` runs `npm run db:migrate:local`, and wrangler asks
// "About to apply 1 migration(s) ... continue?" whenever it sees a terminal. Nobody should have to answer.

/** The product's first migration, shown as applied; a product with none is told there is nothing to apply. */
const FIRST_MIGRATION = (await readdir(join(ROOT, "migrations")))
  .filter((file) => file.endsWith(".sql"))
  .sort()[0];
const APPLIED = FIRST_MIGRATION
  ? new RegExp(`${FIRST_MIGRATION.replaceAll(".", "\\.")}\\s*│\\s*✅`)
  : /No migrations to apply/;

let stateDirectory: string | undefined;
afterEach(async () => {
  if (stateDirectory) await rm(stateDirectory, { recursive: true, force: true });
});

async function freshState(): Promise<string> {
  stateDirectory = await mkdtemp(join(tmpdir(), "edge-app-migrate-"));
  return stateDirectory;
}

test("in a terminal nobody types into, the local migrations apply without a question", async () => {
  const state = await freshState();
  const run = await runCommand(`npm run db:migrate:local -- --persist-to ${state}`, {
    stdin: "terminal",
    timeoutMs: 60_000,
  });
  expect(run.timedOut, run.output).toBe(false);
  expect(run.code, run.output).toBe(0);
  // Applied (wrangler prints its table of applied files once it has), to a database in the state folder given
  // (asking wrangler again, as this test did, cost a third process and said no more).
  expect(run.output).toMatch(APPLIED);
  const files = await readdir(state, { recursive: true });
  expect(files.some((file) => file.endsWith(".sqlite"))).toBe(true);
});

test("with stdin closed (CI, an editor's task runner), they apply too", async () => {
  const run = await runCommand(`npm run db:migrate:local -- --persist-to ${await freshState()}`, {
    stdin: "closed",
    timeoutMs: 60_000,
  });
  expect(run.code, run.output).toBe(0);
  expect(run.output).toMatch(APPLIED);
});
