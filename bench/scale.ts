/**
 * npm run bench:scale: static pages at scale. For each N (default 100, 1,000 and 10,000; or the numbers
 * given: `npm run bench:scale -- 100 1000`), generates N more static pages into a temporary copy of the
 * product (bench/scaled-copy.ts), builds it, and prints the build time (bundling, pre-rendering,
 * the rest), the output size, the first-load and navigation-chunk bytes, the `_headers` and
 * `run_worker_first` rule counts, and the CSP check of a sample of pages served by the copy's Worker in
 * workerd. BENCH_NICE=1 builds under `nice -n 10` on a shared machine. Ends with one summary line.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { serveBuild } from "edge-platform/local-server";
import {
  contentSecurityPolicy,
  inlineScripts,
  inlineStyles,
  measureFirstLoad,
  scriptHash,
} from "edge-platform/testing";
import { buildCopy, createScaledCopy, directorySize, scaledPagePath } from "./scaled-copy.ts";

const COUNTS = process.argv.slice(2).map(Number);
const PAGE_COUNTS = COUNTS.length > 0 ? COUNTS : [100, 1_000, 10_000];
if (PAGE_COUNTS.some((count) => !Number.isInteger(count) || count < 1))
  throw new Error(`Page counts must be positive integers: ${process.argv.slice(2).join(" ")}`);
const SAMPLE_SIZE = 40;
const KB = 1024;
const MB = 1024 * 1024;

type Row = {
  added: number;
  staticPages: number;
  totalS: number;
  cpuS: number;
  bundleS: number;
  prerenderS: number;
  finishS: number;
  msPerPage: number;
  cpuMsPerPage: number;
  clientMB: number;
  clientFiles: number;
  serverKB: number;
  headersRules: number;
  workerFirstRules: number;
  firstLoadRaw: number;
  firstLoadGzip: number;
  firstLoadScaleGzip: number;
  navigationRaw: number;
  navigationGzip: number;
  manifestGzip: number;
  cspOk: number;
  cspSampled: number;
};

const rows: Row[] = [];
for (const added of PAGE_COUNTS) {
  const copy = await createScaledCopy(added);
  try {
    console.log(`\nN = ${added}: building ${copy.staticPages.length} static pages in ${copy.directory}`);
    const timings = await buildCopy(copy.directory, { nice: process.env.BENCH_NICE === "1" });
    const build = join(copy.directory, "build");
    const client = await directorySize(join(build, "client"));
    const server = await directorySize(join(build, "server"));
    const headersFile = await readFile(join(build, "client", "_headers"), "utf8");
    const deployConfig = JSON.parse(await readFile(join(build, "server", "wrangler.json"), "utf8")) as {
      assets?: { run_worker_first?: string[] };
    };
    const assets = await readdir(join(build, "client", "assets"));
    const chunk = async (prefix: string) => {
      const file = assets.find((name) => name.startsWith(prefix) && name.endsWith(".js"));
      if (!file) throw new Error(`No ${prefix}*.js in the build`);
      const bytes = await readFile(join(build, "client", "assets", file));
      return { raw: bytes.byteLength, gzip: gzipSync(bytes, { level: 9 }).byteLength };
    };
    const navigation = await chunk("navigation-install-");
    const app = await serveBuild({ buildDirectory: build, onLog: () => {} });
    try {
      const firstLoad = await measureFirstLoad(app.url, "/");
      const firstLoadScale = await measureFirstLoad(app.url, scaledPagePath(added));
      const sample = samplePaths(copy.staticPages, SAMPLE_SIZE);
      let cspOk = 0;
      for (const path of sample) {
        if (await hasStrictPolicy(new URL(path, app.url))) cspOk++;
        else console.log(`  CSP check failed: ${path}`);
      }
      const row: Row = {
        added,
        staticPages: copy.staticPages.length,
        totalS: timings.totalMs / 1000,
        cpuS: timings.cpuMs / 1000,
        bundleS: timings.bundleMs / 1000,
        prerenderS: timings.prerenderMs / 1000,
        finishS: timings.finishMs / 1000,
        msPerPage: timings.prerenderMs / copy.staticPages.length,
        cpuMsPerPage: timings.cpuMs / copy.staticPages.length,
        clientMB: client.bytes / MB,
        clientFiles: client.files,
        serverKB: server.bytes / KB,
        headersRules: headersFile.split("\n").filter((line) => /^\//.test(line)).length,
        workerFirstRules: deployConfig.assets?.run_worker_first?.length ?? 0,
        firstLoadRaw: firstLoad.rawBytes,
        firstLoadGzip: firstLoad.gzipBytes,
        firstLoadScaleGzip: firstLoadScale.gzipBytes,
        navigationRaw: navigation.raw,
        navigationGzip: navigation.gzip,
        manifestGzip: (await chunk("manifest-")).gzip,
        cspOk,
        cspSampled: sample.length,
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    } finally {
      await app.close();
    }
  } finally {
    await copy.remove();
  }
}

console.log(
  "\nadded  pages  build s  CPU s  bundle s  prerender s  rest s  ms/page  CPU ms/page  client MB  files  server KiB  _headers  run_worker_first  first-load B raw, gz (/, /scale/N gz)  nav chunk B raw, gz  manifest B gz  CSP ok",
);
for (const row of rows) {
  console.log(
    [
      String(row.added).padStart(5),
      String(row.staticPages).padStart(6),
      row.totalS.toFixed(1).padStart(8),
      row.cpuS.toFixed(1).padStart(6),
      row.bundleS.toFixed(1).padStart(9),
      row.prerenderS.toFixed(1).padStart(12),
      row.finishS.toFixed(1).padStart(7),
      row.msPerPage.toFixed(1).padStart(8),
      row.cpuMsPerPage.toFixed(1).padStart(12),
      row.clientMB.toFixed(1).padStart(10),
      String(row.clientFiles).padStart(6),
      row.serverKB.toFixed(0).padStart(11),
      String(row.headersRules).padStart(9),
      String(row.workerFirstRules).padStart(17),
      `${row.firstLoadRaw}, ${row.firstLoadGzip} (${row.firstLoadScaleGzip})`.padStart(37),
      `${row.navigationRaw}, ${row.navigationGzip}`.padStart(22),
      String(row.manifestGzip).padStart(14),
      `${row.cspOk}/${row.cspSampled}`.padStart(7),
    ].join(" "),
  );
}
const flat = (pick: (row: Row) => number) => new Set(rows.map(pick)).size === 1;
console.log(
  `\nscale: ${rows.map((row) => `${row.staticPages} pages ${row.totalS.toFixed(0)} s (${row.msPerPage.toFixed(1)} ms/page pre-render, ${row.cpuS.toFixed(0)} s CPU)`).join("; ")}; ` +
    `first-load ${flat((row) => row.firstLoadRaw) ? "the same" : "NOT the same"} raw bytes at every N, navigation chunk ${flat((row) => row.navigationRaw) ? "the same" : "NOT the same"}; ` +
    `CSP ${rows.reduce((sum, row) => sum + row.cspOk, 0)}/${rows.reduce((sum, row) => sum + row.cspSampled, 0)} sampled pages strict`,
);

/** Up to `size` paths spread evenly over the list, its first and last included. */
function samplePaths(paths: readonly string[], size: number): string[] {
  if (paths.length <= size) return [...paths];
  return Array.from(
    { length: size },
    (_, n) => paths[Math.round((n * (paths.length - 1)) / (size - 1))] ?? "/",
  );
}

/** 200, and a policy that allows exactly the page's inline scripts by hash plus 'strict-dynamic'. */
async function hasStrictPolicy(url: URL): Promise<boolean> {
  const response = await fetch(url);
  const html = await response.text();
  const hashes = [...new Set(await Promise.all(inlineScripts(html).map(scriptHash)))];
  // The inlined stylesheets (the platform's and the product's root one) are allowed by their hashes too.
  const styleSha256 = await Promise.all(inlineStyles(html).map(scriptHash));
  return (
    response.status === 200 &&
    hashes.length > 0 &&
    response.headers.get("content-security-policy") ===
      contentSecurityPolicy({ sha256: hashes }, { styleSha256 })
  );
}
