import { describe, expect, test } from "vitest";
import { hasSql, wranglerError } from "../../src/vite/dev-d1-migrations.ts";

// packages/edge-platform/src/vite/dev-d1-migrations.ts: `npm run dev` applies a migration when it is saved
// (tests/platform/browser/dev-server.spec.ts runs it on the fixture's database). These are its two decisions that need
// no server.

describe("hasSql: a migration file is applied only once it holds SQL", () => {
  // wrangler would record an empty file as applied and never run what is written into it later: an editor
  // creates the file (empty) before the first save, `wrangler d1 migrations create` with a comment only.
  test("an empty file, white space, comments or a lone semicolon are not SQL yet", () => {
    for (const source of [
      "",
      " \n\t",
      "-- Migration number: 0004 \t 2026-11-25T22:00:00.000Z\n",
      "/* later */\n;",
    ])
      expect(hasSql(source), JSON.stringify(source)).toBe(false);
  });

  test("a statement is, after comments too", () => {
    expect(hasSql("CREATE TABLE notes (text TEXT);")).toBe(true);
    expect(hasSql("-- Migration number: 0004\nCREATE TABLE notes (text TEXT);\n")).toBe(true);
    expect(hasSql("/* notes */ DROP TABLE notes")).toBe(true);
  });
});

test("wranglerError keeps what wrangler said went wrong, without its decoration", () => {
  // wrangler 4.156's output for a migration with a syntax error, colours removed.
  const output = [
    "? About to apply 1 migration(s)",
    "🤖 Using fallback value in non-interactive context: yes",
    "🌀 Executing on local database DB (00000000-0000-0000-0000-000000000000) from .wrangler/state/v3/d1:",
    "🌀 To execute on your remote database, add a --remote flag to your wrangler command.",
    "",
    '✘ [ERROR] near "CREAT": syntax error at offset 0: SQLITE_ERROR',
    "",
    "",
    '🪵  Logs were written to "/root/.config/.wrangler/logs/wrangler.log"',
  ].join("\n");
  expect(wranglerError(output)).toBe('near "CREAT": syntax error at offset 0: SQLITE_ERROR');
});
