import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRegistry, startLocalRegistry } from "../../../test-support/local-registry.js";
import { quickStartBlock } from "../../../test-support/readme-quick-start.js";
import {
  publishReleaseCopy,
  type ReleaseCopy,
  versionReleaseCopy,
} from "../../../test-support/release-copy.js";

// Slow (a release made in a copy, a local registry, three installs through its
// uplink): it checks what a user gets from a release, not the workspace.
const run = promisify(execFile);
const packagesDir = fileURLToPath(new URL("../../", import.meta.url));
const PUBLIC = [
  "@mcp-rt/cache",
  "@mcp-rt/client",
  "@mcp-rt/config",
  "@mcp-rt/manager",
  "@mcp-rt/session",
  "@mcp-rt/testing",
];

let work: string;
let release: ReleaseCopy;
let registry: LocalRegistry | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "mcp-rt-release-"));
  release = await versionReleaseCopy(join(work, "release"));
  registry = await startLocalRegistry(join(work, "registry"));
  await publishReleaseCopy(release, registry);
}, 300_000);

afterAll(async () => {
  await registry?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The README quick start's server, at the version the workspace tests with. */
async function pinnedEverything(): Promise<string> {
  const catalog = await readFile(join(packagesDir, "..", "pnpm-workspace.yaml"), "utf8");
  const pinned = /"@modelcontextprotocol\/server-everything":\s*(\S+)/.exec(catalog)?.[1];
  expect(pinned).toBeTruthy();
  return `@modelcontextprotocol/server-everything@${pinned}`;
}

/** An empty folder where `npm install <specs>` ran against the local registry only. */
async function installed(name: string, specs: string[]): Promise<string> {
  const app = join(work, name);
  await mkdir(app);
  await writeFile(join(app, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  await run("npm", ["install", ...specs, "--registry", registry!.url, "--loglevel=error"], {
    cwd: app,
    env: registry!.env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return app;
}

/** A user's home for a run: nothing in it but what the test writes. */
async function home(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir);
  return dir;
}

/** The environment of a quick start: a user's PATH and HOME, and only the local registry for `npx`. */
function userEnv(homeDir: string): NodeJS.ProcessEnv {
  const { npm_config_userconfig, npm_config_cache } = registry!.env;
  return {
    PATH: process.env.PATH,
    HOME: homeDir,
    XDG_CACHE_HOME: join(homeDir, ".cache"),
    npm_config_userconfig,
    npm_config_cache,
  };
}

describe("a release, published to a local registry and installed from it", () => {
  it("versions every public package (0.0.0 → 0.1.0) with a CHANGELOG, and publishes ^ ranges", async () => {
    expect(release.packages.map((pkg) => pkg.name).sort()).toEqual(PUBLIC);
    for (const pkg of release.packages) {
      if (pkg.versionBefore === "0.0.0") expect(pkg.version, pkg.name).toBe("0.1.0");
      expect(await readFile(join(pkg.dir, "CHANGELOG.md"), "utf8"), pkg.name).toContain(`## ${pkg.version}`);
      const response = await fetch(`${registry!.url}${pkg.name.replace("/", "%2f")}`);
      const manifest = ((await response.json()) as { versions: Record<string, Record<string, unknown>> })
        .versions[pkg.version];
      expect(manifest, pkg.name).toBeDefined();
      for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
        for (const [dep, range] of Object.entries((manifest![field] ?? {}) as Record<string, string>)) {
          expect(range, `${pkg.name} ${field} ${dep}`).not.toMatch(/^(workspace|catalog):/);
          const own = release.packages.find((other) => other.name === dep);
          if (own) expect(range, `${pkg.name} ${field} ${dep}`).toBe(`^${own.version}`);
        }
      }
    }
  });

  it("npm install @mcp-rt/manager, alone: runs the README quick start (discover, connect, call, close)", {
    timeout: 300_000,
  }, async () => {
    const app = await installed("manager-app", ["@mcp-rt/manager", await pinnedEverything()]);
    // Only the manager was asked for; its @mcp-rt dependencies came with it.
    for (const name of ["config", "client", "cache", "manager"]) {
      expect(existsSync(join(app, "node_modules", "@mcp-rt", name, "dist", "index.js")), name).toBe(true);
    }
    expect(existsSync(join(app, "node_modules", "@mcp-rt", "testing"))).toBe(false);

    const markdown = await readFile(join(packagesDir, "manager", "README.md"), "utf8");
    const config = quickStartBlock(markdown, "json");
    const script = quickStartBlock(markdown, "js");
    // The house rule for a README quick start: 15 lines, config included.
    expect(config.trimEnd().split("\n").length + script.trimEnd().split("\n").length).toBeLessThanOrEqual(15);
    await writeFile(join(app, ".mcp.json"), config);
    await writeFile(join(app, "quick-start.mjs"), script);
    const user = await home("manager-home");
    const { stdout, stderr } = await run(process.execPath, ["quick-start.mjs"], {
      cwd: app,
      timeout: 120_000,
      env: userEnv(user),
    });
    expect(stderr).toBe("");
    expect(stdout).toContain("mcp_everything_echo  <- mcp:everything via Claude Code");
    expect(stdout).toContain("Echo: hello from mcp-rt");
    // The default tool cache wrote the server's tools under the user's home.
    expect(existsSync(join(user, ".cache", "mcp-rt"))).toBe(true);
  });

  it("npm install @mcp-rt/session, alone: runs the README quick start (a session, /mcp list, dispose)", {
    timeout: 300_000,
  }, async () => {
    const app = await installed("session-app", ["@mcp-rt/session", await pinnedEverything()]);
    expect(existsSync(join(app, "node_modules", "@mcp-rt", "manager", "dist", "index.js"))).toBe(true);
    expect(existsSync(join(app, "node_modules", "@mcp-rt", "testing"))).toBe(false);

    const markdown = await readFile(join(packagesDir, "session", "README.md"), "utf8");
    await writeFile(join(app, "quick-start.mjs"), quickStartBlock(markdown, "js"));
    // The session reads the user's own servers (a project's wait for /mcp trust).
    const user = await home("session-home");
    await mkdir(join(user, ".mcp-rt"));
    await writeFile(
      join(user, ".mcp-rt", "mcp.json"),
      JSON.stringify({
        mcpServers: {
          everything: { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] },
        },
      }),
    );
    const { stdout } = await run(process.execPath, ["quick-start.mjs"], {
      cwd: app,
      timeout: 120_000,
      env: userEnv(user),
    });
    expect(stdout).toMatch(/● everything\b.*connected/);
  });

  it("npx -p @mcp-rt/config mcp-rt-config list, in an empty folder", { timeout: 300_000 }, async () => {
    const empty = await home("empty");
    const user = await home("config-home");
    await mkdir(join(user, ".mcp-rt"));
    await writeFile(
      join(user, ".mcp-rt", "mcp.json"),
      JSON.stringify({ mcpServers: { notes: { command: "notes-mcp", args: ["--stdio"] } } }),
    );
    const { stdout } = await run("npx", ["-p", "@mcp-rt/config", "mcp-rt-config", "list"], {
      cwd: empty,
      timeout: 120_000,
      env: { ...registry!.env, HOME: user },
    });
    expect(stdout).toMatch(/^notes\s+stdio\s+mcp-rt\s+user\s+.*active$/m);
    expect(stdout).toContain("1 entry: 1 active.");
  });
});
