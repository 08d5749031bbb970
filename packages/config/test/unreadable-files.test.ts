import { execFileSync } from "node:child_process";
import { chmod, mkdir, open, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { escapeRegExp, useFixtureTrees, withSurvivor } from "./helpers.js";

const fixture = useFixtureTrees();

describe("unreadable files", () => {
  it("reports a folder where a config file should be, and loads the rest", async () => {
    const tree = await fixture();
    const path = join(tree.home, ".cursor", "mcp.json");
    await mkdir(path, { recursive: true });
    await withSurvivor(tree, ".cursor/mcp.json");
    const result = await tree.load();
    expect(result.configs.survivor).toBeDefined();
    expect(result.errors).toEqual([
      {
        path,
        code: "CONFIG_UNREADABLE",
        message: expect.stringMatching(
          new RegExp(
            `^${escapeRegExp(path)}: is a folder where a config file is expected; remove or rename the folder$`,
          ),
        ),
      },
    ]);
  });

  it.skipIf(process.getuid?.() === 0)("reports a file without read permission", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".gemini/settings.json", { mcpServers: { a: { command: "x" } } });
    await chmod(file, 0o000);
    const result = await tree.load();
    expect(result.errors).toEqual([expect.objectContaining({ path: file, code: "CONFIG_UNREADABLE" })]);
    expect(result.errors[0]?.message).toContain("EACCES");
  });

  const unix = process.platform !== "win32";

  it.runIf(unix)("does not wait on a named pipe where a config file should be", async () => {
    const tree = await fixture();
    const path = join(tree.home, ".cursor", "mcp.json");
    await mkdir(join(tree.home, ".cursor"), { recursive: true });
    execFileSync("mkfifo", [path]);
    await withSurvivor(tree, ".cursor/mcp.json");
    const started = Date.now();
    const result = await tree.load();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.configs.survivor).toBeDefined();
    expect(result.errors).toEqual([
      { path, code: "CONFIG_UNREADABLE", message: expect.stringContaining("is not a regular file") },
    ]);
  });

  it.runIf(unix)("does not read a device (a link to /dev/zero) where a config file should be", async () => {
    const tree = await fixture();
    const path = join(tree.home, ".gemini", "settings.json");
    await mkdir(join(tree.home, ".gemini"), { recursive: true });
    await symlink("/dev/zero", path);
    const result = await tree.load();
    expect(result.errors).toEqual([
      { path, code: "CONFIG_UNREADABLE", message: expect.stringContaining("is not a regular file") },
    ]);
  });

  it("does not read a file larger than MAX_CONFIG_FILE_BYTES", async () => {
    const tree = await fixture();
    const path = await tree.writeHome(".claude.json", "");
    const handle = await open(path, "r+");
    await handle.truncate(256 * 1024 * 1024 + 1); // sparse: nothing is written
    await handle.close();
    await withSurvivor(tree, ".claude.json");
    const result = await tree.load();
    expect(result.configs.survivor).toBeDefined();
    expect(result.errors).toEqual([
      { path, code: "CONFIG_UNREADABLE", message: expect.stringContaining("MiB a config file may have") },
    ]);
  });

  it.runIf(unix)("does not wait on a named pipe given as a server's envFile", async () => {
    const tree = await fixture();
    execFileSync("mkfifo", [join(tree.project, "env.pipe")]);
    await tree.writeProject(".vscode/mcp.json", {
      servers: {
        a: { type: "stdio", command: "x", envFile: "env.pipe" },
        b: { type: "stdio", command: "y" },
      },
    });
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["b"]);
    expect(result.errors).toEqual([expect.objectContaining({ server: "a", code: "CONFIG_UNREADABLE" })]);
    expect(result.errors[0]?.message).toContain("is not a regular file");
  });

  it("treats a path through a regular file (ENOTDIR) as missing", async () => {
    const tree = await fixture();
    await tree.writeHome(".codeium", "a file, not a folder");
    expect((await tree.load()).errors).toEqual([]);
  });
});
