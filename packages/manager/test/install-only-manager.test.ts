import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quickStartBlock } from "../../../test-support/readme-quick-start.js";

// Slow (packs six packages, installs from the npm registry): it checks what a
// user gets from `npm install @mcp-rt/manager`, not the workspace.
const run = promisify(execFile);
const packagesDir = fileURLToPath(new URL("../../", import.meta.url));
const readme = fileURLToPath(new URL("../README.md", import.meta.url));

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
}

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "mcp-rt-install-only-manager-"));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("npm install @mcp-rt/manager, alone, from packed tarballs", () => {
  it("runs the README quick start: discover .mcp.json, connect, call a tool, disconnect", {
    timeout: 300_000,
  }, async () => {
    const publishable: Array<{ dir: string; pkg: PackageJson }> = [];
    for (const dir of await readdir(packagesDir)) {
      const path = join(packagesDir, dir, "package.json");
      if (!existsSync(path)) continue;
      const pkg = JSON.parse(await readFile(path, "utf8")) as PackageJson;
      if (pkg.private) continue;
      if (!existsSync(join(packagesDir, dir, "dist"))) {
        throw new Error(`${pkg.name} is not built (no ${dir}/dist): run \`pnpm build\` first`);
      }
      publishable.push({ dir, pkg });
    }
    expect(publishable.map((p) => p.pkg.name)).toContain("@mcp-rt/manager");

    const tarballs = join(work, "tarballs");
    await mkdir(tarballs);
    const tarballOf = new Map<string, string>();
    for (const { dir, pkg } of publishable) {
      const before = new Set(await readdir(tarballs));
      await run("pnpm", ["pack", "--pack-destination", tarballs], { cwd: join(packagesDir, dir) });
      const added = (await readdir(tarballs)).filter((file) => !before.has(file));
      expect(added, pkg.name).toHaveLength(1);
      tarballOf.set(pkg.name, `file:${join(tarballs, added[0]!)}`);
    }

    // The README's server, at the version the workspace tests with.
    const catalog = await readFile(join(packagesDir, "..", "pnpm-workspace.yaml"), "utf8");
    const pinned = /"@modelcontextprotocol\/server-everything":\s*(\S+)/.exec(catalog)?.[1];
    expect(pinned).toBeTruthy();

    const app = join(work, "app");
    await mkdir(app);
    const overrides = Object.fromEntries([...tarballOf].filter(([name]) => name !== "@mcp-rt/manager"));
    await writeFile(
      join(app, "package.json"),
      JSON.stringify(
        {
          name: "mcp-rt-quick-start-check",
          private: true,
          type: "module",
          dependencies: {
            "@mcp-rt/manager": tarballOf.get("@mcp-rt/manager"),
            "@modelcontextprotocol/server-everything": pinned,
          },
          overrides,
        },
        null,
        2,
      ),
    );
    await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: app,
      maxBuffer: 16 * 1024 * 1024,
    });
    // Only the manager was asked for; its @mcp-rt dependencies came from the tarballs.
    for (const name of ["config", "client", "cache", "manager"]) {
      expect(existsSync(join(app, "node_modules", "@mcp-rt", name, "dist", "index.js")), name).toBe(true);
    }
    expect(existsSync(join(app, "node_modules", "@mcp-rt", "testing"))).toBe(false);

    const markdown = await readFile(readme, "utf8");
    const config = quickStartBlock(markdown, "json");
    const script = quickStartBlock(markdown, "js");
    // The house rule for a README quick start: 15 lines, config included.
    expect(config.trimEnd().split("\n").length + script.trimEnd().split("\n").length).toBeLessThanOrEqual(15);
    await writeFile(join(app, ".mcp.json"), config);
    await writeFile(join(app, "quick-start.mjs"), script);
    const home = join(work, "home");
    await mkdir(home);
    const { stdout, stderr } = await run(process.execPath, ["quick-start.mjs"], {
      cwd: app,
      timeout: 120_000,
      env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: join(home, ".cache") },
    });
    expect(stderr).toBe("");
    expect(stdout).toContain("mcp_everything_echo  <- mcp:everything via Claude Code");
    expect(stdout).toContain("Echo: hello from mcp-rt");
    // The default tool cache wrote the server's tools under the (test) home.
    expect(existsSync(join(home, ".cache", "mcp-rt"))).toBe(true);
  });
});
