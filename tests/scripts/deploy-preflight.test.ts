import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runCommand } from "./run-script";

// wrangler.toml ships with a placeholder D1 database_id. Deploying with it would build, upload
// and then fail at Cloudflare's API (or bind nothing); the preflight stops first and says what to do.

const PLACEHOLDER_MESSAGE =
  'The D1 database "edge-app" (binding DB) has the placeholder database_id 00000000-0000-0000-0000-000000000000';

for (const script of ["deploy", "db:migrate:remote"]) {
  test(`npm run ${script} refuses the placeholder database_id before doing anything, and says what to do`, async () => {
    const run = await runCommand(`npm run ${script}`, { stdin: "closed", timeoutMs: 60_000 });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain(PLACEHOLDER_MESSAGE);
    expect(run.output).toContain("npx wrangler d1 create edge-app");
    expect(run.output).toContain("npm run db:migrate:remote");
    // Nothing was built, and wrangler never started a deployment or a remote migration.
    expect(run.output).not.toContain("> edge-app@ build");
    expect(run.output).not.toContain("wrangler 4.");
  });
}

test("a real database_id passes the preflight", async () => {
  const directory = await mkdtemp(join(tmpdir(), "edge-app-preflight-"));
  try {
    const config = join(directory, "wrangler.toml");
    await writeFile(
      config,
      [
        'name = "edge-app"',
        'compatibility_date = "2026-10-12"',
        "[[d1_databases]]",
        'binding = "DB"',
        'database_name = "edge-app"',
        'database_id = "5d4c2f1e-8a3b-4c7d-9e6f-0a1b2c3d4e5f"',
      ].join("\n"),
    );
    const run = await runCommand(`node scripts/deploy-preflight.ts --config ${config}`, {
      stdin: "closed",
      timeoutMs: 60_000,
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toBe("");
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
