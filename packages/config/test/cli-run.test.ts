import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ExplainJson } from "../src/cli/explain-command.js";
import type { ListJson } from "../src/cli/list-command.js";
import { type CliIo, runCli } from "../src/cli/run-cli.js";
import type { SourceMeta } from "../src/model/source-meta.js";
import { createTrustStore } from "../src/trust-store.js";
import type { LoadConfigsOptions, LoadConfigsResult } from "../src/types.js";
import { useTempDir } from "./helpers.js";

// The loader is stubbed here to pin the formatting down; cli.test.ts runs the
// built bin over real files.
const dir = useTempDir("mcp-rt-cli-run-");
const home = "/home/ann";
const project = "/work/proj";

const cursorUser: SourceMeta = {
  provider: "cursor",
  providerName: "Cursor",
  path: `${home}/.cursor/mcp.json`,
  level: "user",
};
const claudeProject: SourceMeta = {
  provider: "claude-code",
  providerName: "Claude Code",
  path: `${project}/.mcp.json`,
  level: "project",
};

function result(): LoadConfigsResult {
  return {
    configs: {
      github: {
        url: "https://api.example.com/mcp?token=sk-url-secret&page=1",
        headers: { Authorization: "Bearer sk-header-secret", "X-Cmd": "!op read op://v/i" },
      },
      local: {
        command: "node",
        args: ["server.js", "--api-key=sk-arg-secret"],
        env: { DB_PASS: "sk-env-secret" },
      },
    },
    sources: { github: cursorUser, local: claudeProject },
    errors: [
      { path: `${project}/.mcp.json`, server: "broken", message: 'args: must be a list of strings; got "x"' },
      { path: `${home}/.codex/config.toml`, message: "bad TOML at line 3, column 1" },
    ],
    shadowed: [{ name: "github", source: claudeProject, by: cursorUser }],
    disabled: [{ name: "old", source: cursorUser }],
    filtered: [],
    needsApproval: [],
  };
}

function harness(
  load: (cwd: string, o: LoadConfigsOptions) => Promise<LoadConfigsResult> = async () => result(),
) {
  const out = { stdout: "", stderr: "", calls: [] as LoadConfigsOptions[] };
  const io: CliIo = {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    cwd: project,
    homeDir: home,
    load: async (cwd, options) => {
      out.calls.push(options);
      return load(cwd, options);
    },
    trust: createTrustStore(join(dir(), "trust.json")),
  };
  return { io, out };
}

const SECRETS = /sk-url-secret|sk-header-secret|sk-arg-secret|sk-env-secret|op:\/\/v\/i/;

describe("list", () => {
  it("prints one row per entry with transport, provider, level, file and status", async () => {
    const { io, out } = harness();
    expect(await runCli(["list"], io)).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines[0]).toBe(`MCP servers for ${project}`);
    expect(out.stdout).toMatch(/^NAME\s+TRANSPORT\s+PROVIDER\s+LEVEL\s+FILE\s+STATUS$/m);
    expect(out.stdout).toMatch(/^github\s+http\s+Cursor\s+user\s+~\/\.cursor\/mcp\.json\s+active$/m);
    expect(out.stdout).toMatch(/^github\s+-\s+Claude Code\s+project\s+\.mcp\.json\s+shadowed$/m);
    expect(out.stdout).toMatch(/^local\s+stdio\s+Claude Code\s+project\s+\.mcp\.json\s+active$/m);
    expect(out.stdout).toMatch(/^old\s+-\s+Cursor\s+user\s+~\/\.cursor\/mcp\.json\s+disabled$/m);
    expect(out.stdout).toMatch(/^broken\s+-\s+-\s+-\s+\.mcp\.json\s+invalid$/m);
    expect(out.stdout).toContain("broken (.mcp.json): args: must be a list of strings");
    expect(out.stdout).toContain("~/.codex/config.toml: bad TOML at line 3, column 1");
    expect(out.stdout).not.toMatch(SECRETS);
    // What a default session sees: project files read, no server held back, the trust store consulted.
    expect(out.calls[0]).toMatchObject({ enableProjectConfig: true });
    expect(out.calls[0]?.reserve).toBeUndefined();
    expect(out.calls[0]?.trust).toBe(io.trust);
  });

  it("--json is the documented document", async () => {
    const { io, out } = harness();
    expect(await runCli(["list", "--json"], io)).toBe(0);
    const json = JSON.parse(out.stdout) as ListJson;
    expect(json.version).toBe(1);
    expect(json.cwd).toBe(project);
    expect(json.servers.map((s) => [s.name, s.status, s.winner])).toEqual([
      ["broken", "invalid", true],
      ["github", "active", true],
      ["github", "shadowed", false],
      ["local", "active", true],
      ["old", "disabled", true],
    ]);
    expect(json.servers[2]).toMatchObject({
      provider: "claude-code",
      level: "project",
      path: `${project}/.mcp.json`,
      shadowedBy: { provider: "cursor", providerName: "Cursor", path: cursorUser.path },
    });
    expect(json.errors).toEqual([
      { path: `${home}/.codex/config.toml`, message: "bad TOML at line 3, column 1" },
    ]);
    expect(out.stdout).not.toMatch(SECRETS);
  });

  it("passes --no-project-config to the loader, resolving --cwd", async () => {
    const { io, out } = harness();
    let seen = "";
    io.load = async (cwd, options) => {
      seen = cwd;
      out.calls.push(options);
      return result();
    };
    expect(await runCli(["list", "--cwd", "../other", "--no-project-config"], io)).toBe(0);
    expect(seen).toBe("/work/other");
    expect(out.calls[0]).toMatchObject({ enableProjectConfig: false });
  });

  it("names the reason of a server a caller's reserve rule held back", async () => {
    const { io, out } = harness(async () => ({
      ...result(),
      filtered: [{ name: "search", source: cursorUser, reason: "native-search", keys: ["k-1"] }],
    }));
    expect(await runCli(["list", "--json"], io)).toBe(0);
    const json = JSON.parse(out.stdout) as ListJson;
    expect(json.servers.find((s) => s.name === "search")).toMatchObject({
      status: "filtered",
      reason: 'held back by the caller\'s `reserve` rule (reason "native-search")',
    });
  });
});

describe("explain", () => {
  it("shows every source, the config with secrets as ***, and why", async () => {
    const { io, out } = harness();
    expect(await runCli(["explain", "github"], io)).toBe(0);
    expect(out.stdout).toContain('Server "github": active');
    expect(out.stdout).toContain("Claude Code, .mcp.json: shadowed");
    expect(out.stdout).toContain("Cursor (~/.cursor/mcp.json) defines the same name with higher priority");
    expect(out.stdout).toContain('"Authorization": "***"');
    expect(out.stdout).toContain("token=***");
    expect(out.stdout).toContain("runs a command at connect time for: headers.X-Cmd");
    expect(out.stdout).not.toMatch(SECRETS);
  });

  it("--show-secrets reveals them", async () => {
    const { io, out } = harness();
    expect(await runCli(["explain", "local", "--show-secrets"], io)).toBe(0);
    expect(out.stdout).toContain("sk-env-secret");
    expect(out.stdout).toContain("--api-key=sk-arg-secret");
  });

  it("--json redacts too and says so", async () => {
    const { io, out } = harness();
    expect(await runCli(["explain", "local", "--json"], io)).toBe(0);
    const json = JSON.parse(out.stdout) as ExplainJson;
    expect(json).toMatchObject({ version: 1, name: "local", status: "active", secretsShown: false });
    expect(json.entries[0]?.config).toEqual({
      command: "node",
      args: ["server.js", "--api-key=***"],
      env: { DB_PASS: "***" },
    });
    expect(out.stdout).not.toMatch(SECRETS);
  });

  it("explains an invalid entry with its validation errors", async () => {
    const { io, out } = harness();
    expect(await runCli(["explain", "broken"], io)).toBe(0);
    expect(out.stdout).toContain('Server "broken": invalid');
    expect(out.stdout).toContain("- args: must be a list of strings");
  });

  it("exits 1 for an unknown name and lists the known names", async () => {
    const { io, out } = harness();
    expect(await runCli(["explain", "nope"], io)).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toContain('no server named "nope"');
    expect(out.stderr).toContain("Known servers: broken, github, local, old");
  });
});

describe("usage", () => {
  it.each([
    [[], 2],
    [["frobnicate"], 2],
    [["list", "--bogus"], 2],
    [["list", "extra"], 2],
    [["explain"], 2],
    [["trust", "--json"], 2],
    [["list", "--show-secrets"], 2],
    [["--help"], 0],
    [["explain", "--help"], 0],
  ])("%j exits %i", async (argv, code) => {
    const { io, out } = harness();
    expect(await runCli(argv, io)).toBe(code);
    if (code === 0) expect(out.stdout).toContain("Usage:");
    else expect(out.stderr.length).toBeGreaterThan(0);
    if (code === 2) expect(out.calls).toEqual([]);
  });

  it("reports a loader failure with exit 1 instead of crashing", async () => {
    const { io, out } = harness(async () => {
      throw new Error("disk on fire");
    });
    expect(await runCli(["list"], io)).toBe(1);
    expect(out.stderr).toContain("disk on fire");
  });
});
