// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in fixture configs are part of what is tested
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ExplainJson } from "../src/cli/explain-command.js";
import type { ListJson } from "../src/cli/list-command.js";

// The built bin, run as a user runs it, over a fixture home and project.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(packageDir, "dist", "cli.js");

const GH_TOKEN = "ghp_env_secret_123";
const PROJECT_KEY = "sk-project-secret-456";
const URL_TOKEN = "url-secret-789";
const EXA_KEY = "exa-secret-000";
const BAD_URL_TOKEN = "bad-url-secret-111";

let root: string;
let home: string;
let project: string;

beforeAll(() => {
  const build = spawnSync("pnpm", ["--filter", "@mcp-rt/config", "build"], {
    cwd: packageDir,
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
}, 120_000);

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "mcp-rt-cli-")));
  home = join(root, "home");
  project = join(root, "project");
  await writeJson(join(home, ".cursor", "mcp.json"), {
    mcpServers: {
      github: { url: "https://api.github.example/mcp", headers: { Authorization: "Bearer ${env:GH_TOKEN}" } },
      docs: { url: `https://docs.example/mcp?token=${URL_TOKEN}&lang=en` },
      old: { command: "old-server" },
      exa: { url: `https://mcp.exa.ai/mcp?exaApiKey=${EXA_KEY}` },
    },
  });
  await writeJson(join(home, ".mcp-rt", "mcp.json"), { mcpServers: {}, disabledServers: ["old"] });
  await writeJson(join(project, ".mcp.json"), {
    mcpServers: {
      lint: { command: "npx", args: ["lint-mcp"], env: { API_KEY: PROJECT_KEY } },
      docs: { command: "docs-local" },
      broken: { command: 42 },
      badurl: { url: `api.example/mcp?token=${BAD_URL_TOKEN}`, headers: { "X-Key": 12345678901 } },
    },
  });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2));
}

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    encoding: "utf8",
    // Only what the fixture needs: no real config of the machine leaks in.
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GH_TOKEN },
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function statuses(): Record<string, string[]> {
  const json = JSON.parse(cli("list", "--json").stdout) as ListJson;
  const out: Record<string, string[]> = {};
  for (const server of json.servers) {
    out[server.name] = [...(out[server.name] ?? []), `${server.provider}:${server.status}`];
  }
  return out;
}

describe("mcp-rt-config list", () => {
  it("prints a table with every entry's status", () => {
    const { code, stdout, stderr } = cli("list");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(`MCP servers for ${project}`);
    expect(stdout).toMatch(/^NAME\s+TRANSPORT\s+PROVIDER\s+LEVEL\s+FILE\s+STATUS$/m);
    expect(stdout).toMatch(/^github\s+http\s+Cursor\s+user\s+~\/\.cursor\/mcp\.json\s+active$/m);
    expect(stdout).toMatch(/^lint\s+stdio\s+Claude Code\s+project\s+\.mcp\.json\s+needs approval$/m);
    expect(stdout).toMatch(/^docs\s+stdio\s+Claude Code\s+project\s+\.mcp\.json\s+needs approval$/m);
    expect(stdout).toMatch(/^docs\s+http\s+Cursor\s+user\s+~\/\.cursor\/mcp\.json\s+shadowed$/m);
    expect(stdout).toMatch(/^old\s+stdio\s+Cursor\s+user\s+~\/\.cursor\/mcp\.json\s+disabled$/m);
    expect(stdout).toMatch(/^broken\s+\S+\s+Claude Code\s+project\s+\.mcp\.json\s+invalid$/m);
    expect(stdout).toContain("mcp-rt-config trust");
    expect(stdout).not.toContain(GH_TOKEN);
    expect(stdout).not.toContain(PROJECT_KEY);
    expect(stdout).not.toContain(URL_TOKEN);
  });

  it("--json is stable and parseable", () => {
    const { code, stdout } = cli("list", "--json", "--cwd", project);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as ListJson;
    expect(json.version).toBe(1);
    expect(json.cwd).toBe(project);
    const lint = json.servers.find((s) => s.name === "lint");
    expect(lint).toEqual({
      name: "lint",
      status: "needs approval",
      transport: "stdio",
      provider: "claude-code",
      providerName: "Claude Code",
      level: "project",
      path: join(project, ".mcp.json"),
      winner: true,
      shadowedBy: null,
      reason: expect.stringContaining("mcp-rt-config trust"),
      issues: [],
    });
    expect(json.servers.find((s) => s.name === "broken")?.issues.join(" ")).toContain("command");
  });

  it("shows what a default session sees: every valid server kept, project files unless --no-project-config", () => {
    expect(statuses().exa).toEqual(["cursor:active"]);
    // No session rule holds a server back here, so there is nothing to preview.
    const removed = cli("list", "--filter-exa");
    expect(removed.code).toBe(2);
    expect(removed.stderr).toContain("--filter-exa");
    const userOnly = cli("list", "--no-project-config");
    expect(userOnly.stdout).not.toContain("lint");
    expect(userOnly.stdout).toMatch(/^docs\s+http\s+Cursor\s+user\s+\S+\s+active$/m);
    for (const out of [cli("list").stdout, cli("list", "--json").stdout, cli("explain", "exa").stdout]) {
      expect(out).not.toContain(EXA_KEY);
    }
  });

  it("shows bad files as problems and still lists the rest", async () => {
    await mkdir(join(project, ".cursor"), { recursive: true });
    await writeFile(join(project, ".cursor", "mcp.json"), '{ "mcpServers": { "x": ');
    const { code, stdout } = cli("list");
    expect(code).toBe(0);
    expect(stdout).toContain("File problems:");
    expect(stdout).toContain(join(".cursor", "mcp.json"));
    expect(stdout).toMatch(/^github\s+http/m);
  });

  it("says in each client's terms why a server is off, and asks once for all servers awaiting approval", async () => {
    await writeJson(join(home, ".claude.json"), {
      mcpServers: { both: { command: "user-scope" } },
      projects: {
        [project]: { mcpServers: { both: { command: "local-scope" } }, disabledMcpjsonServers: ["declined"] },
      },
    });
    await writeJson(join(project, ".mcp.json"), {
      mcpServers: { declined: { command: "x" }, lint: { command: "npx" }, docs: { command: "d" } },
    });
    await writeJson(join(home, ".gemini", "settings.json"), {
      mcp: { excluded: ["gem"] },
      mcpServers: { gem: { command: "g" } },
    });
    await writeJson(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: { wind: { command: "w", disabled: true } },
    });
    const { stdout } = cli("list");
    const note = (name: string) => stdout.split("\n").filter((line) => line.startsWith(`  ${name} (`));
    expect(note("both")).toEqual([
      expect.stringContaining("Claude Code's local scope for this folder (projects[…] in ~/.claude.json)"),
    ]);
    expect(note("declined")[0]).toContain(`projects[${JSON.stringify(project)}].disabledMcpjsonServers`);
    expect(note("gem")[0]).toContain("turned off in Gemini CLI's settings (mcp.excluded in");
    expect(note("wind")[0]).toContain("`disabled: true` in its config");
    const waiting = stdout.split("\n").filter((line) => line.includes("not approved for this folder"));
    expect(waiting).toEqual([
      expect.stringMatching(/^ {2}docs, lint: project-level servers .*mcp-rt-config trust/),
    ]);
  });

  it("says so when nothing is configured", async () => {
    await rm(home, { recursive: true, force: true });
    await rm(join(project, ".mcp.json"));
    const { code, stdout } = cli("list");
    expect(code).toBe(0);
    expect(stdout).toContain("No MCP servers found.");
    expect(stdout).toContain("Claude Code");
    expect(stdout).toContain("~/.mcp-rt/mcp.json");
  });
});

describe("mcp-rt-config trust / untrust", () => {
  it("approves the project, asks again when .mcp.json changes, and revokes", async () => {
    expect(statuses().lint).toEqual(["claude-code:needs approval"]);

    const trust = cli("trust");
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain("Approved 2 project-level servers");
    expect(trust.stdout).toContain("npx lint-mcp");
    expect(trust.stdout).not.toContain(PROJECT_KEY);
    expect(statuses().lint).toEqual(["claude-code:active"]);
    expect(statuses().docs).toEqual(["claude-code:active", "cursor:shadowed"]);

    await writeJson(join(project, ".mcp.json"), {
      mcpServers: { lint: { command: "npx", args: ["lint-mcp", "--evil"] }, docs: { command: "docs-local" } },
    });
    expect(statuses().lint).toEqual(["claude-code:needs approval"]);

    expect(cli("trust").code).toBe(0);
    expect(statuses().lint).toEqual(["claude-code:active"]);
    const untrust = cli("untrust");
    expect(untrust.code).toBe(0);
    expect(untrust.stdout).toContain("no longer approved");
    expect(statuses().lint).toEqual(["claude-code:needs approval"]);
  });

  it("has nothing to approve in a folder without project servers", async () => {
    await rm(join(project, ".mcp.json"));
    const { code, stdout } = cli("trust");
    expect(code).toBe(0);
    expect(stdout).toContain("No project-level MCP servers to approve");
  });
});

describe("mcp-rt-config explain", () => {
  it("hides every secret unless --show-secrets", () => {
    for (const name of ["github", "docs", "lint"]) {
      const { code, stdout } = cli("explain", name);
      expect(code).toBe(0);
      expect(stdout).not.toContain(GH_TOKEN);
      expect(stdout).not.toContain(PROJECT_KEY);
      expect(stdout).not.toContain(URL_TOKEN);
      const json = cli("explain", name, "--json").stdout;
      expect(json).not.toContain(GH_TOKEN);
      expect(json).not.toContain(PROJECT_KEY);
      expect(json).not.toContain(URL_TOKEN);
    }
    const github = cli("explain", "github").stdout;
    expect(github).toContain('"Authorization": "***"');
    expect(cli("explain", "github", "--show-secrets").stdout).toContain(`Bearer ${GH_TOKEN}`);
    expect(cli("explain", "lint", "--show-secrets").stdout).toContain(PROJECT_KEY);
    expect(cli("explain", "docs", "--show-secrets").stdout).toContain(URL_TOKEN);
  });

  it("shows every source of a name, the winner first, and why the other is shadowed", () => {
    const json = JSON.parse(cli("explain", "docs", "--json").stdout) as ExplainJson;
    expect(json.status).toBe("needs approval");
    expect(json.entries.map((e) => [e.provider, e.status, e.winner])).toEqual([
      ["claude-code", "needs approval", true],
      ["cursor", "shadowed", false],
    ]);
    expect(json.entries[1]?.config).toEqual({ url: "https://docs.example/mcp?token=***&lang=en" });
    const text = cli("explain", "docs").stdout;
    expect(text).toContain("Claude Code (.mcp.json) defines the same name with higher priority");
  });

  it("hides secrets quoted by validation messages of invalid entries", () => {
    const outputs = [
      cli("list").stdout,
      cli("list", "--json").stdout,
      cli("explain", "badurl").stdout,
      cli("explain", "badurl", "--json").stdout,
    ];
    for (const out of outputs) {
      expect(out).toContain("badurl");
      expect(out).not.toContain(BAD_URL_TOKEN);
      expect(out).not.toContain("12345678901");
    }
    expect(cli("explain", "badurl").stdout).toMatch(/problems:\n\s+- .*url.*token=\*\*\*/);
    expect(cli("explain", "badurl", "--show-secrets").stdout).toContain(BAD_URL_TOKEN);
  });

  it("hides secrets in env, headers and args of the wrong shape, and keeps placeholders readable", async () => {
    await writeJson(join(project, ".mcp.json"), {
      mcpServers: {
        argobj: { command: "x", args: ["--key", { password: "s3cret-obj" }, ["s3cret-arr"]] },
        envobj: { command: "x", env: { TOKEN: { v: "s3cret-envobj" }, PIN: 4321, FLAG: ["s3cret-envarr"] } },
        hdrarr: { type: "http", url: "https://h/x", headers: ["Authorization: Bearer s3cret-hdrarr"] },
        hdrstr: { type: "http", url: "https://h/x", headers: "Bearer s3cret-hdrstr" },
        envstr: { command: "x", env: "TOKEN=s3cret-envstr" },
        noturl: { type: "http", url: "not a url with token=s3cret-noturl" },
        unset: { type: "http", url: "https://h/x", headers: { Authorization: "Bearer ${NOT_SET_ANYWHERE}" } },
      },
    });
    const names = ["argobj", "envobj", "hdrarr", "hdrstr", "envstr", "noturl", "unset"];
    const outputs = [cli("list").stdout, cli("list", "--json").stdout];
    for (const name of names)
      outputs.push(cli("explain", name).stdout, cli("explain", name, "--json").stdout);
    for (const out of outputs) {
      expect(out).not.toMatch(/s3cret|4321/);
    }
    expect(cli("explain", "unset").stdout).toContain("${NOT_SET_ANYWHERE} in headers.Authorization");
    expect(cli("explain", "envobj", "--show-secrets").stdout).toContain("s3cret-envobj");
  });

  it("explains disabled and invalid servers", () => {
    const old = cli("explain", "old").stdout;
    expect(old).toContain("disabledServers");
    expect(old).toContain("config (as its file has it)");
    expect(cli("explain", "github").stdout).toContain("config (variables expanded)");
    const broken = cli("explain", "broken");
    expect(broken.code).toBe(0);
    expect(broken.stdout).toContain('Server "broken": invalid');
    expect(broken.stdout).toMatch(/problems:\n\s+- .*command/);
  });

  it("exits 1 for an unknown name and lists the known ones", () => {
    const { code, stdout, stderr } = cli("explain", "nope");
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain('no server named "nope"');
    expect(stderr).toContain("Known servers: badurl, broken, docs, exa, github, lint, old");
  });
});

describe("mcp-rt-config usage", () => {
  it.each([
    [["--help"], 0],
    [[], 2],
    [["nope"], 2],
    [["list", "--nope"], 2],
    [["explain"], 2],
  ])("%j exits %i", (args, code) => {
    const result = cli(...args);
    expect(result.code).toBe(code);
    if (code === 0) expect(result.stdout).toContain("Usage:");
    else expect(result.stderr).not.toBe("");
  });
});
