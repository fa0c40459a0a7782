import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import {
  DEBUG_ID_PLACEHOLDER,
  DEBUG_ID_SNIPPET,
  debugIdFor,
  debugIdOfBundle,
  mapWithDebugId,
  sourceMapUpload,
} from "../../src/vite/source-maps.ts";
import { movedSourceMap } from "../../src/vite/source-maps-outside-assets.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("uploads only with a token, an org and a project", () => {
  const all = { SENTRY_AUTH_TOKEN: "sntrys_x", SENTRY_ORG: "acme", SENTRY_PROJECT: "edge-app" };
  expect(sourceMapUpload(all)).toEqual({
    upload: true,
    authToken: "sntrys_x",
    org: "acme",
    project: "edge-app",
  });
  for (const name of Object.keys(all) as (keyof typeof all)[]) {
    expect(sourceMapUpload({ ...all, [name]: undefined })).toEqual({ upload: false });
    expect(sourceMapUpload({ ...all, [name]: "  " })).toEqual({ upload: false });
  }
});

test("a debug ID is a UUID of the code: the same code the same ID, other code another", async () => {
  const id = await debugIdFor("console.log(1)");
  expect(id).toMatch(UUID);
  expect(await debugIdFor("console.log(1)")).toBe(id);
  expect(await debugIdFor("console.log(2)")).not.toBe(id);
  expect(id).toHaveLength(DEBUG_ID_PLACEHOLDER.length);
});

test("the snippet names the placeholder where the SDK and the plugin read the ID", async () => {
  const id = await debugIdFor("x");
  const code = `${DEBUG_ID_SNIPPET}x`.replaceAll(DEBUG_ID_PLACEHOLDER, id);
  expect(debugIdOfBundle(code)).toBe(id);
  const registry: Record<string, string> = {};
  new Function("globalThis", code.replace(/x$/, ""))({ _sentryDebugIds: registry });
  expect(Object.values(registry)).toEqual([id]);
  expect(debugIdOfBundle(DEBUG_ID_SNIPPET)).toBeUndefined();
});

test("a map gets the debug ID under both names and keeps the rest", () => {
  const map = JSON.parse(mapWithDebugId('{"version":3,"sources":["a.ts"],"mappings":"AAAA"}', "id-1"));
  expect(map).toEqual({ version: 3, sources: ["a.ts"], mappings: "AAAA", debugId: "id-1", debug_id: "id-1" });
});

test("the upload finds a built file's map where the build moved it, from the file's path alone", async () => {
  const build = await mkdtemp(join(tmpdir(), "moved-source-map-"));
  try {
    const map = join(build, "sourcemaps", "client", "assets", "entry-AAAAAAAA.js.map");
    await mkdir(join(build, "sourcemaps", "client", "assets"), { recursive: true });
    await writeFile(map, "{}");
    expect(await movedSourceMap(join(build, "client", "assets", "entry-AAAAAAAA.js"))).toBe(map);
    expect(
      await movedSourceMap(join(build, "client", "assets", "rolldown-runtime-BBBBBBBB.js")),
    ).toBeUndefined();
    expect(await movedSourceMap(join(build, "server", "assets", "entry-AAAAAAAA.js"))).toBeUndefined();
  } finally {
    await rm(build, { recursive: true, force: true });
  }
});
