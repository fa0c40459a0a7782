import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { runCommand } from "./run-script";

// `.ci/run` installs Chromium with apt in the background, beside `npm ci` (.ci/provision.sh). A run that stops
// before it waits for that install (a failed `npm ci`) still waits for apt to end: apt left running outlived the
// run and held its lock. Here the install is a stand-in that takes a second and then writes a file, and the step
// beside it fails or passes; whether the file is there when bash has exited says whether the run waited.

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "ci-provision-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Bash with .ci/provision.sh sourced, Chromium "missing", its install a stand-in, then `step`. */
function runWithInstall(step: string) {
  const done = join(folder, "installed");
  const script = [
    "set -euo pipefail",
    "source .ci/provision.sh",
    "chromium_missing() { return 0; }",
    `chromium_install() { sleep 1; echo done > '${done}'; }`,
    "CHROMIUM_PATH=/bin/true",
    "chromium_install_start",
    step,
  ].join("\n");
  return {
    run: runCommand(`bash -c "${script.replaceAll('"', '\\"')}"`, { stdin: "closed", timeoutMs: 30_000 }),
    installed: () => readFile(done, "utf8").catch(() => undefined),
  };
}

test("a step that fails before the install is awaited: the run waits for apt, then fails with the step", async () => {
  const { run, installed } = runWithInstall('echo "npm ci failed"; false');
  const result = await run;
  expect(result.code, result.output).toBe(1);
  expect(await installed(), "the install had ended when the run did").toBe("done\n");
  expect(result.output).toContain("Waiting for the Chromium install begun beside npm ci to finish");
});

test("a run that awaits the install as .ci/run does says nothing more when it ends", async () => {
  const { run, installed } = runWithInstall("chromium_install_wait; echo after");
  const result = await run;
  expect(result.code, result.output).toBe(0);
  expect(await installed()).toBe("done\n");
  expect(result.output).toContain("after");
  expect(result.output).not.toContain("Waiting for the Chromium install");
});
