/**
 * npm run bench:tunnel: the latency /monitoring adds over posting the same envelope straight to the
 * ingest stand-in (both on 127.0.0.1), sequential requests, interleaved A B A B. Ends with one summary line.
 */

import { serveBuild } from "edge-platform/local-server";
import { reportingVars, startIngestStandIn, TEST_DSN, TEST_TUNNEL_QUERY } from "edge-platform/testing";
import { percentile } from "./stats.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const envelope = `${JSON.stringify({ event_id: "a".repeat(32), dsn: TEST_DSN })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify({ message: "bench", extra: "x".repeat(2_000) })}\n`;

const ingest = await startIngestStandIn();
const app = await serveBuild({
  vars: reportingVars(ingest),
  onLog: () => {},
});
const tunnelUrl = new URL(`/monitoring?${TEST_TUNNEL_QUERY}`, app.url).href;
const directUrl = `${ingest.origin}/api/4500000000000002/envelope/?hsts=0`;

async function timeGet(url: string): Promise<number> {
  const start = performance.now();
  await (await fetch(url)).arrayBuffer();
  return performance.now() - start;
}

async function timePost(url: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(url, {
    method: "POST",
    body: envelope,
    headers: { "Content-Type": "text/plain;charset=UTF-8" },
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - start;
}

const tunnel: number[] = [];
const direct: number[] = [];
const workerdHop: number[] = [];
const assetUrl = new URL("/robots.txt", app.url).href;
try {
  for (let warmup = 0; warmup < 50; warmup++) {
    await timePost(tunnelUrl);
    await timePost(directUrl);
  }
  for (let index = 0; index < REQUESTS; index++) {
    tunnel.push(await timePost(tunnelUrl));
    direct.push(await timePost(directUrl));
    workerdHop.push(await timeGet(assetUrl));
  }
} finally {
  await app.close();
  await ingest.close();
}

const row = (name: string, values: number[]) =>
  `${name.padEnd(22)} p50 ${percentile(values, 50).toFixed(2)} ms  p99 ${percentile(values, 99).toFixed(2)} ms`;
console.log(`\n${REQUESTS} sequential posts each, interleaved:`);
console.log(row("direct to stand-in", direct));
console.log(row("through /monitoring", tunnel));
console.log(row("a static file (workerd)", workerdHop));
const overhead50 = percentile(tunnel, 50) - percentile(direct, 50);
const overhead99 = percentile(tunnel, 99) - percentile(direct, 99);
console.log(
  `\ntunnel: adds ${overhead50.toFixed(2)} ms at p50 and ${overhead99.toFixed(2)} ms at p99 over a direct post (${REQUESTS} posts each)`,
);
