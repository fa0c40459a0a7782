import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT, runCommand } from "./run-script";

// These machines ship Node 20, the project needs Node 24 (.nvmrc). A newcomer's first command on the old
// Node must stop at once with the way to get Node 24 (scripts/require-node.mjs), not fail later inside
// wrangler or on a .ts file.

/** The Node versions on this machine besides the one running the tests: `which -a node`, plus Debian's. */
function otherNodes(): { path: string; major: number }[] {
  const candidates = new Set(["/usr/bin/node", "/usr/local/bin/node"]);
  try {
    for (const path of execFileSync("which", ["-a", "node"], { encoding: "utf8" }).split("\n"))
      if (path) candidates.add(path);
  } catch {
    // No node on PATH besides ours.
  }
  const found: { path: string; major: number }[] = [];
  for (const path of candidates) {
    try {
      const version = execFileSync(path, ["--version"], { encoding: "utf8" }).trim();
      found.push({ path, major: Number(/^v(\d+)\./.exec(version)?.[1]) });
    } catch {
      // Not there.
    }
  }
  return found;
}

const oldNode = otherNodes().find(({ major }) => major < 24);

describe.skipIf(!oldNode)(`on an older Node (${oldNode?.path})`, () => {
  // That Node and its npm first on PATH, as in a shell where nothing was set up.
  const env = { PATH: `${dirname(oldNode?.path ?? "")}:${process.env.PATH}` };

  for (const script of ["dev", "start", "build", "postinstall", "test"]) {
    test(`npm run ${script} stops at once and says how to get Node 24`, async () => {
      const run = await runCommand(`npm run ${script}`, { stdin: "closed", timeoutMs: 60_000, env });
      expect(run.timedOut, run.output).toBe(false);
      expect(run.code, run.output).not.toBe(0);
      expect(run.output).toContain(
        `This project needs Node.js 24 (.nvmrc); this shell runs Node.js ${oldNode?.major}.`,
      );
      expect(run.output).toContain("source .ci/provision.sh && provision_node");
      expect(run.output).toContain("nvm install, or fnm use: each reads .nvmrc");
      // Nothing after the check ran: no wrangler (its banner, its own Node check), no migration, no build.
      expect(run.output).not.toMatch(/⛅️ wrangler|Wrangler requires|Migrations to be applied|vite v\d/);
    });
  }
});

test("on Node 24 the check passes without a word", async () => {
  const run = await runCommand("node scripts/require-node.mjs", { stdin: "closed", timeoutMs: 30_000 });
  expect(run.code, run.output).toBe(0);
  expect(run.output).toBe("");
});

test("the Node the check requires is the one CI installs and the packages declare", async () => {
  const read = (path: string) => readFile(join(ROOT, path), "utf8");
  const required = (await read(".nvmrc")).trim();
  expect(required).toBe("24");
  const provision = await read(".ci/provision.sh");
  expect(provision).toMatch(new RegExp(`^NODE_VERSION="${required}\\.\\d+\\.\\d+"$`, "m"));
  expect(provision).toMatch(new RegExp(`^MIN_NODE="${required}\\.0\\.0"$`, "m"));
  for (const manifest of ["package.json", "packages/edge-platform/package.json"]) {
    const { engines } = JSON.parse(await read(manifest)) as { engines: { node: string } };
    expect(engines.node, manifest).toBe(`>=${required}`);
  }
});
