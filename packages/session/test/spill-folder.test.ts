import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSpillFolder, sweepSpillFolders } from "../src/spill-folder.js";

// A pid that no process has right now: that of a process that has ended.
const deadPid = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
  encoding: "utf8",
}).stdout;
const isRoot = process.getuid?.() === 0;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-rt-spill-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A crashed session's folder under `parent`, with a result in it. */
async function crashed(parent: string, mode = 0o700): Promise<string> {
  const folder = join(parent, `session-${deadPid}-abcDEF`);
  await mkdir(folder, { recursive: true, mode });
  await chmod(folder, mode);
  await writeFile(join(folder, "result-1.txt"), "left over");
  return folder;
}

describe("the sweep of crashed sessions' folders", () => {
  it("removes a crashed session's folder of this user, and no file a link in it points to", async () => {
    const parent = join(root, "results");
    await mkdir(parent, { mode: 0o700 });
    const folder = await crashed(parent);
    const victim = join(root, "victim.txt");
    await writeFile(victim, "mine");
    await symlink(victim, join(folder, "link"));
    expect(await sweepSpillFolders(parent)).toEqual({ removed: [folder], skipped: [] });
    expect(existsSync(folder)).toBe(false);
    expect(await readFile(victim, "utf8")).toBe("mine");
  });

  it("leaves a parent that is a link, or that others can open, and says why", async () => {
    const real = join(root, "real");
    await mkdir(real, { mode: 0o700 });
    const folder = await crashed(real);
    const link = join(root, "results");
    await symlink(real, link);
    expect(await sweepSpillFolders(link)).toEqual({ removed: [], skipped: [`${link} is a link`] });
    await chmod(real, 0o777);
    expect((await sweepSpillFolders(real)).skipped).toEqual([
      `${real} can be opened by other users (mode 777)`,
    ]);
    expect(existsSync(folder)).toBe(true);
  });

  it("leaves an entry that is a link or open to others, and never follows it", async () => {
    const parent = join(root, "results");
    await mkdir(parent, { mode: 0o700 });
    const victim = join(root, "victim");
    await mkdir(victim);
    await writeFile(join(victim, "important.txt"), "mine");
    const planted = join(parent, `session-${deadPid}-LINKed`);
    await symlink(victim, planted);
    const open = await crashed(parent, 0o755);
    const sweep = await sweepSpillFolders(parent);
    expect(sweep.removed).toEqual([]);
    expect(sweep.skipped.sort()).toEqual(
      [`${planted} is a link`, `${open} can be opened by other users (mode 755)`].sort(),
    );
    expect(await readFile(join(victim, "important.txt"), "utf8")).toBe("mine");
  });

  it.skipIf(!isRoot)("leaves a parent planted by another user, and what is in it", async () => {
    const parent = join(root, "results");
    await mkdir(parent, { mode: 0o700 });
    const folder = await crashed(parent);
    await chown(parent, 12345, 12345);
    expect(await sweepSpillFolders(parent)).toEqual({
      removed: [],
      skipped: [`${parent} belongs to another user`],
    });
    expect(existsSync(folder)).toBe(true);
    await expect(createSpillFolder(parent)).rejects.toThrow(`${parent} belongs to another user`);
  });

  it("closes a parent of this user that others could open before making a session's folder in it", async () => {
    const parent = join(root, "results");
    await mkdir(parent);
    await chmod(parent, 0o755);
    const folder = await createSpillFolder(parent);
    expect((await lstat(parent)).mode & 0o777).toBe(0o700);
    expect((await lstat(folder)).mode & 0o777).toBe(0o700);
  });
});
