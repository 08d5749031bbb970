// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in fixture configs are part of what is tested
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ListJson } from "../src/cli/list-command.js";
import { CLI_SECRETS, useCliFixture, writeAt } from "./helpers.js";

// The built bin, run as a user runs it, over a fixture home and project.
const fx = useCliFixture();
const { GH_TOKEN, PROJECT_KEY, URL_TOKEN, EXA_KEY } = CLI_SECRETS;

describe("mcp-rt-config list", () => {
  it("prints a table with every entry's status", () => {
    const { code, stdout, stderr } = fx.cli("list");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(`MCP servers for ${fx.project}`);
    expect(stdout).toMatch(/^NAME\s+TRANSPORT\s+PROVIDER\s+LEVEL\s+FILE\s+STATUS$/m);
    expect(stdout).toMatch(/^github\s+http\s+Cursor\s+user\s+~\/\.cursor\/mcp\.json\s+active$/m);
    expect(stdout).toMatch(/^lint\s+stdio\s+Claude Code\s+project\s+\.mcp\.json\s+needs approval$/m);
    expect(stdout).toMatch(/^docs\s+stdio\s+Claude Code\s+project\s+\.mcp\.json\s+needs approval$/m);
    // Until the project is approved, its entry does not shadow the user's.
    expect(stdout).toMatch(/^docs\s+http\s+Cursor\s+user\s+~\/\.cursor\/mcp\.json\s+active$/m);
    expect(stdout).toMatch(/^old\s+stdio\s+Cursor\s+user\s+~\/\.cursor\/mcp\.json\s+disabled$/m);
    expect(stdout).toMatch(/^broken\s+\S+\s+Claude Code\s+project\s+\.mcp\.json\s+invalid$/m);
    expect(stdout).toContain("mcp-rt-config trust");
    expect(stdout).not.toContain(GH_TOKEN);
    expect(stdout).not.toContain(PROJECT_KEY);
    expect(stdout).not.toContain(URL_TOKEN);
  });

  it("--json is stable and parseable", () => {
    const { code, stdout } = fx.cli("list", "--json", "--cwd", fx.project);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as ListJson;
    expect(json.version).toBe(1);
    expect(json.cwd).toBe(fx.project);
    const lint = json.servers.find((s) => s.name === "lint");
    expect(lint).toEqual({
      name: "lint",
      status: "needs approval",
      transport: "stdio",
      provider: "claude-code",
      providerName: "Claude Code",
      level: "project",
      path: join(fx.project, ".mcp.json"),
      winner: true,
      shadowedBy: null,
      reason: expect.stringContaining("mcp-rt-config trust"),
      issues: [],
      blockedBy: null,
    });
    expect(json.servers.find((s) => s.name === "broken")?.issues.join(" ")).toContain("command");
  });

  it("shows what a default session sees: every valid server kept, project files unless --no-project-config", () => {
    expect(fx.statuses().exa).toEqual(["cursor:active"]);
    // No session rule holds a server back here, so there is nothing to preview.
    const removed = fx.cli("list", "--filter-exa");
    expect(removed.code).toBe(2);
    expect(removed.stderr).toContain("--filter-exa");
    const userOnly = fx.cli("list", "--no-project-config");
    expect(userOnly.stdout).not.toContain("lint");
    expect(userOnly.stdout).toMatch(/^docs\s+http\s+Cursor\s+user\s+\S+\s+active$/m);
    for (const out of [
      fx.cli("list").stdout,
      fx.cli("list", "--json").stdout,
      fx.cli("explain", "exa").stdout,
    ]) {
      expect(out).not.toContain(EXA_KEY);
    }
  });

  it("shows bad files as problems and still lists the rest", async () => {
    await mkdir(join(fx.project, ".cursor"), { recursive: true });
    await writeFile(join(fx.project, ".cursor", "mcp.json"), '{ "mcpServers": { "x": ');
    const { code, stdout } = fx.cli("list");
    expect(code).toBe(0);
    expect(stdout).toContain("File problems:");
    expect(stdout).toContain(join(".cursor", "mcp.json"));
    expect(stdout).toMatch(/^github\s+http/m);
  });

  it("says in each client's terms why a server is off, and asks once for all servers awaiting approval", async () => {
    await writeAt(fx.home, ".claude.json", {
      mcpServers: { both: { command: "user-scope" } },
      projects: {
        [fx.project]: {
          mcpServers: { both: { command: "local-scope" } },
          disabledMcpjsonServers: ["declined"],
        },
      },
    });
    await writeAt(fx.project, ".mcp.json", {
      mcpServers: { declined: { command: "x" }, lint: { command: "npx" }, docs: { command: "d" } },
    });
    await writeAt(fx.home, ".gemini/settings.json", {
      mcp: { excluded: ["gem"] },
      mcpServers: { gem: { command: "g" } },
    });
    await writeAt(fx.home, ".codeium/windsurf/mcp_config.json", {
      mcpServers: { wind: { command: "w", disabled: true } },
    });
    const { stdout } = fx.cli("list");
    const note = (name: string) => stdout.split("\n").filter((line) => line.startsWith(`  ${name} (`));
    expect(note("both")).toEqual([
      expect.stringContaining("Claude Code's local scope for this folder (projects[…] in ~/.claude.json)"),
    ]);
    expect(note("declined")[0]).toContain(`projects[${JSON.stringify(fx.project)}].disabledMcpjsonServers`);
    expect(note("gem")[0]).toContain("turned off in Gemini CLI's settings (mcp.excluded in");
    expect(note("wind")[0]).toContain("`disabled: true` in its config");
    const waiting = stdout.split("\n").filter((line) => line.includes("not approved for this folder"));
    expect(waiting).toEqual([
      expect.stringMatching(/^ {2}docs, lint: project-level servers .*mcp-rt-config trust/),
    ]);
  });

  it("lists an Antigravity config written as its documentation shows it: the CLI's file, then the IDE's", async () => {
    await writeAt(fx.home, ".gemini/config/mcp_config.json", {
      mcpServers: {
        context7: {
          serverUrl: "https://mcp.context7.com/mcp",
          headers: { CONTEXT7_API_KEY: "ctx7sk-9f8e7d6c-5b4a-3f2e-1d0c" },
        },
        fetch: { command: "uvx", args: ["mcp-server-fetch"], env: { MODE: "server" } },
        sleeping: { command: "npx", args: ["-y", "some-mcp"], disabled: true },
      },
    });
    await writeAt(fx.home, ".gemini/antigravity/mcp_config.json", {
      mcpServers: { fetch: { command: "old-fetch" }, ide: { serverUrl: "https://ide.example/mcp" } },
    });
    const { code, stdout, stderr } = fx.cli("list");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const cli = "~/\\.gemini/config/mcp_config\\.json";
    const ide = "~/\\.gemini/antigravity/mcp_config\\.json";
    expect(stdout).toMatch(new RegExp(`^context7\\s+http\\s+Antigravity\\s+user\\s+${cli}\\s+active$`, "m"));
    expect(stdout).toMatch(new RegExp(`^fetch\\s+stdio\\s+Antigravity\\s+user\\s+${cli}\\s+active$`, "m"));
    expect(stdout).toMatch(new RegExp(`^fetch\\s+stdio\\s+Antigravity\\s+user\\s+${ide}\\s+shadowed$`, "m"));
    expect(stdout).toMatch(new RegExp(`^ide\\s+http\\s+Antigravity\\s+user\\s+${ide}\\s+active$`, "m"));
    expect(stdout).toMatch(
      new RegExp(`^sleeping\\s+stdio\\s+Antigravity\\s+user\\s+${cli}\\s+disabled$`, "m"),
    );
    expect(stdout).not.toContain("ctx7sk-9f8e7d6c");
    const explained = fx.cli("explain", "context7");
    expect(explained.code).toBe(0);
    expect(explained.stdout).toContain("Antigravity, ~/.gemini/config/mcp_config.json: active");
    expect(explained.stdout).toContain('"url": "https://mcp.context7.com/mcp"');
    expect(explained.stdout).toContain('"CONTEXT7_API_KEY": "***"');
    expect(explained.stdout).not.toContain("ctx7sk-9f8e7d6c");
  });

  it("says so when nothing is configured", async () => {
    await rm(fx.home, { recursive: true, force: true });
    await rm(join(fx.project, ".mcp.json"));
    const { code, stdout } = fx.cli("list");
    expect(code).toBe(0);
    expect(stdout).toContain("No MCP servers found.");
    expect(stdout).toContain("Claude Code");
    expect(stdout).toContain("~/.mcp-rt/mcp.json");
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
    const result = fx.cli(...args);
    expect(result.code).toBe(code);
    if (code === 0) expect(result.stdout).toContain("Usage:");
    else expect(result.stderr).not.toBe("");
  });
});
