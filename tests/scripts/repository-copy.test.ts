import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { copyRepository } from "../../scripts/repository-copy.ts";

// The copies `npm test` runs suites in (scripts/test-all.ts, scripts/platform-boundary.ts) are the working tree as
// git sees it: right after `npm run replace-reference`, before a commit, the step's deleted files are tracked still,
// and copying them failed (ENOENT), so every suite run in a copy failed.
test("a copy holds the working tree: no deleted tracked file, a new file not yet added, nothing git ignores", async () => {
  const repository = await mkdtemp(join(tmpdir(), "repository-copy-test-"));
  let copy: string | undefined;
  try {
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=test@example.com", "-c", "user.name=test", ...args], {
        cwd: repository,
        stdio: "ignore",
      });
    await mkdir(join(repository, "app/routes"), { recursive: true });
    await mkdir(join(repository, "node_modules/some-package"), { recursive: true });
    await writeFile(join(repository, ".gitignore"), "build/\nnode_modules/\n");
    await writeFile(join(repository, "app/app.css"), "removed by the step\n");
    await writeFile(join(repository, "app/routes/home.tsx"), "kept\n");
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "start");
    await rm(join(repository, "app/app.css"));
    await writeFile(join(repository, "app/routes/about.tsx"), "new, not added yet\n");
    await writeFile(join(repository, "app/routes/home.tsx"), "edited\n");
    await mkdir(join(repository, "build"));
    await writeFile(join(repository, "build/index.js"), "ignored\n");

    copy = copyRepository("repository-copy-test-copy", repository);
    const files = (await readdir(copy, { recursive: true })).filter(
      (file) => !file.startsWith("node_modules"),
    );
    expect(files.sort()).toEqual([
      ".gitignore",
      "app",
      "app/routes",
      "app/routes/about.tsx",
      "app/routes/home.tsx",
    ]);
    expect(await readFile(join(copy, "app/routes/home.tsx"), "utf8")).toBe("edited\n");
    expect(await readdir(join(copy, "node_modules"))).toEqual(["some-package"]);
  } finally {
    await rm(repository, { recursive: true, force: true });
    if (copy) await rm(copy, { recursive: true, force: true });
  }
});
