import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createProduct } from "../../scripts/create-product.ts";
import { ROOT, runCommand } from "./run-script";

// `npm run create-product -- <folder>` refuses a folder it cannot make a working product in, before it writes
// anything: each refusal names the folder and why. (The product it does make: create-product.test.ts.)

let parent: string;

beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), "create-product-refusals-"));
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

test("a folder inside this repository", () => {
  expect(() => createProduct(join(ROOT, "my-product"))).toThrow(/my-product is inside this repository/);
  expect(existsSync(join(ROOT, "my-product"))).toBe(false);
});

test("a folder that is not empty: nothing of it is overwritten", async () => {
  await writeFile(join(parent, "notes.txt"), "mine\n");
  expect(() => createProduct(parent)).toThrow(/exists and is not empty/);
  expect(existsSync(join(parent, "package.json"))).toBe(false);
});

// npm puts <folder>/node_modules/.bin on PATH, split at ':': every script of the product would fail with
// "not found" (checked with npm 11: `sh: 1: <tool>: not found`).
test("a path with a ':': refused on the command line with exit code 2, nothing made", async () => {
  const folder = join(parent, "my:product");
  const run = await runCommand(`node scripts/create-product.ts '${folder}'`, {
    stdin: "closed",
    timeoutMs: 30_000,
  });
  expect(run.code, run.output).toBe(2);
  expect(run.output).toContain(`${folder} has a ':' in its path: npm's scripts cannot run there (PATH)`);
  expect(existsSync(folder)).toBe(false);
});
