import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import type { Plugin, ViteDevServer } from "vite";
import { unstable_readConfig } from "wrangler";

/**
 * `npm run dev` applies a migration added (or completed) while it runs, so a new table is there without a
 * restart. `npm run dev` migrates the local database once before it starts (`npm run db:migrate:local`); a
 * migration written afterwards used to reach the database only at the next start, and the route using it
 * answered 500 `D1_ERROR: no such table` in between, with no hint.
 *
 * For each D1 binding of the deploy config the dev server runs (`WRANGLER_CONFIG` or wrangler.toml), Vite's
 * watcher follows its `migrations_dir`; when a `.sql` file there is added or saved, wrangler's own
 * `wrangler d1 migrations apply <binding> --local` runs against the dev Worker's local state:
 * @cloudflare/vite-plugin keeps it in `<root>/.wrangler/state/v3` (its `persistState` default, which
 * vite.config.ts keeps), and `--persist-to <root>/.wrangler/state` makes wrangler use that same `v3`
 * directory (as `npm run db:migrate:local`, run from the root, does by default). SQLite takes the write
 * while the Worker runs. Requests wait while a migration is applied, so none meets the old schema. An empty
 * file (an editor creates it before the first save) is left until it has SQL: wrangler would record it as
 * applied and never run it again. A migration that fails says why, in the terminal and in the browser's
 * error overlay, with the command to run it again; once one applies, the page reloads. Nothing runs at
 * start-up: the script's migration has done that.
 */
export function devD1Migrations(): Plugin {
  return {
    name: "edge-platform:dev-d1-migrations",
    apply: "serve",
    // Its middleware goes in before @cloudflare/vite-plugin's, which hands requests to the Worker.
    enforce: "pre",
    configureServer(server) {
      const configPath = resolve(process.env.WRANGLER_CONFIG ?? "wrangler.toml");
      const databases = migrationDirectories(configPath);
      if (databases.length === 0) return;
      const migrator = new Migrator(server, configPath);
      for (const { directory } of databases) server.watcher.add(directory);
      const onFile = (file: string) => {
        if (!file.endsWith(".sql")) return;
        for (const database of databases)
          if (dirname(resolve(file)) === database.directory) migrator.fileChanged(database.binding, file);
      };
      server.watcher.on("add", onFile);
      server.watcher.on("change", onFile);
      // Ahead of the Worker: a request made after a migration was saved meets the migrated database.
      server.middlewares.use((_req, _res, next) => {
        const applying = migrator.applying();
        if (!applying) return next();
        applying.then(() => next());
      });
    },
  };
}

type MigrationDirectory = { binding: string; directory: string };

/** Each D1 binding's migrations directory, as wrangler resolves it: relative to its config file. */
function migrationDirectories(configPath: string): MigrationDirectory[] {
  const config = unstable_readConfig({ config: configPath }, { hideWarnings: true });
  const databases: { binding: string; migrations_dir?: string }[] = config.d1_databases ?? [];
  return databases.map((database) => ({
    binding: database.binding,
    directory: resolve(dirname(configPath), database.migrations_dir ?? "migrations"),
  }));
}

/** Whether a migration file holds any SQL yet: something besides comments, semicolons and white space. */
export function hasSql(source: string): boolean {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/--[^\n]*/g, "");
  return !/^[\s;]*$/.test(withoutComments);
}

/** How long after a file event the migrations run: an editor's save is often more than one event. */
const SETTLE_MS = 150;

/** Runs `wrangler d1 migrations apply --local` for the bindings whose migrations changed, one run at a time. */
class Migrator {
  #pending = new Map<string, Set<string>>();
  #timer: NodeJS.Timeout | undefined;
  #draining = false;
  #done: Promise<void> | undefined;
  #release: (() => void) | undefined;

  readonly server: ViteDevServer;
  readonly configPath: string;

  constructor(server: ViteDevServer, configPath: string) {
    this.server = server;
    this.configPath = configPath;
  }

  /** While migrations wait to be applied or are being applied: settles when they are done (or failed). */
  applying(): Promise<void> | undefined {
    return this.#done;
  }

  fileChanged(binding: string, file: string): void {
    const files = this.#pending.get(binding) ?? new Set<string>();
    files.add(file);
    this.#pending.set(binding, files);
    this.#done ??= new Promise((release) => {
      this.#release = release;
    });
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#drain(), SETTLE_MS);
  }

  async #drain(): Promise<void> {
    if (this.#draining) return; // The pass under way takes what arrived meanwhile.
    this.#draining = true;
    try {
      while (this.#pending.size > 0) {
        const batch = [...this.#pending];
        this.#pending.clear();
        for (const [binding, files] of batch) {
          try {
            await this.#apply(binding, [...files]);
          } catch (error) {
            this.server.config.logger.error(
              `Could not apply the migrations of the local ${binding}: ${error}`,
            );
          }
        }
      }
    } finally {
      this.#draining = false;
    }
    // Nothing was added since the loop's last check: no await in between.
    const release = this.#release;
    this.#done = undefined;
    this.#release = undefined;
    release?.();
  }

  async #apply(binding: string, files: string[]): Promise<void> {
    const logger = this.server.config.logger;
    const root = this.server.config.root;
    const name = (file: string) => relative(root, file);
    const ready: string[] = [];
    for (const file of files) {
      const source = await readFile(file, "utf8").catch(() => undefined);
      if (source === undefined) continue; // Gone again.
      if (hasSql(source)) ready.push(file);
      else logger.info(`${name(file)} has no SQL yet: applied to the local ${binding} once it has.`);
    }
    if (ready.length === 0) return;

    const command = `wrangler d1 migrations apply ${binding} --local`;
    const run = await runWrangler([
      "d1",
      "migrations",
      "apply",
      binding,
      "--local",
      "--persist-to",
      join(root, ".wrangler/state"),
      "--config",
      this.configPath,
    ]);
    const applied = [...run.output.matchAll(/│\s*(\S+\.sql)\s*│\s*✅/g)].map(([, file]) => file);
    if (run.code === 0 && applied.length > 0) {
      logger.info(`Applied to the local ${binding}: ${applied.join(", ")} (${command})`, { timestamp: true });
      this.server.environments.client.hot.send({ type: "full-reload" });
      return;
    }
    if (run.code === 0) {
      // Nothing new: the saved files were applied before, and wrangler never runs a migration twice.
      const names = ready.map(name).join(", ");
      logger.warn(
        `${names} changed, but the local ${binding} applied ${ready.length > 1 ? "them" : "it"} already: a migration runs once. Put the change in a new migration (npx wrangler d1 migrations create ${binding} <name>), or start the local database over (rm -rf .wrangler/state, then npm run dev).`,
        { timestamp: true },
      );
      return;
    }
    const reason = wranglerError(run.output);
    const message = `Applying ${ready.map(name).join(", ")} to the local ${binding} failed (${command}):\n${reason}\nFix it and save it: it is applied again on save (or run npm run db:migrate:local).`;
    logger.error(message, { timestamp: true });
    this.server.environments.client.hot.send({
      type: "error",
      err: {
        message,
        stack: "",
        plugin: "edge-platform:dev-d1-migrations",
        id: ready.length === 1 ? ready[0] : dirname(ready[0] ?? ""),
      },
    });
  }
}

/** wrangler's own CLI (the project's version), in a child process with no terminal, so it never asks. */
function runWrangler(args: string[]): Promise<{ code: number | null; output: string }> {
  const require = createRequire(import.meta.url);
  const bin = join(dirname(require.resolve("wrangler/package.json")), "bin/wrangler.js");
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", WRANGLER_HIDE_BANNER: "true" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, output: stripVTControlCharacters(output) }));
  });
}

/** What wrangler said went wrong: its `[ERROR]` lines and what follows them, or its last lines. */
export function wranglerError(output: string): string {
  const lines = output.split("\n").map((line) => line.trimEnd());
  const start = lines.findIndex((line) => line.includes("[ERROR]"));
  const relevant = start >= 0 ? lines.slice(start) : lines.slice(-8);
  return relevant
    .filter((line) => line.trim() !== "" && !line.includes("Logs were written to"))
    .map((line) => line.replace(/^✘ \[ERROR\] /, ""))
    .join("\n");
}
