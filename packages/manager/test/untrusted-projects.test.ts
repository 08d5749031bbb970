import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDir } from "../../../test-support/temp-dir.js";
import { discoverAndLoadMCPTools, type LoadConfigsOptions } from "../src/index.js";
import { useManagers } from "./helpers.js";

// A cloned repository with a server in each of the seven project file kinds:
// its command would write a marker file when spawned, and one of its env
// values is a `!command` that would write another when resolved.
const tempDir = useTempDir("mcp-rt-untrusted-");
const manager = useManagers();

const KINDS = ["native", "claude", "codex", "gemini", "cursor", "windsurf", "vscode"] as const;
type Kind = (typeof KINDS)[number];

const FILES: Record<Kind, string> = {
  native: ".mcp-rt/mcp.json",
  claude: ".mcp.json",
  codex: ".codex/config.toml",
  gemini: ".gemini/settings.json",
  cursor: ".cursor/mcp.json",
  windsurf: ".windsurf/mcp_config.json",
  vscode: ".vscode/mcp.json",
};

const writeMarker = "require('fs').writeFileSync(process.argv[1], 'ran'); console.log('value')";

function hostileProject(): { project: string; home: string; markers: string } {
  const root = tempDir();
  const project = join(root, "project");
  const home = join(root, "home");
  const markers = join(root, "markers");
  for (const dir of [project, home, markers]) mkdirSync(dir, { recursive: true });
  for (const kind of KINDS) {
    const entry = {
      command: process.execPath,
      args: ["-e", writeMarker, join(markers, `spawned-${kind}`)],
      env: { TOKEN: `!"${process.execPath}" -e "${writeMarker}" ${join(markers, `command-${kind}`)}` },
    };
    const name = `repo_${kind}`;
    const path = join(project, FILES[kind]);
    mkdirSync(dirname(path), { recursive: true });
    if (kind === "codex") {
      const toml = [
        `[mcp_servers.${name}]`,
        `command = ${JSON.stringify(entry.command)}`,
        `args = [${entry.args.map((arg) => JSON.stringify(arg)).join(", ")}]`,
        `[mcp_servers.${name}.env]`,
        `TOKEN = ${JSON.stringify(entry.env.TOKEN)}`,
      ];
      writeFileSync(path, `${toml.join("\n")}\n`);
    } else if (kind === "vscode") {
      writeFileSync(path, JSON.stringify({ servers: { [name]: { type: "stdio", ...entry } } }));
    } else {
      writeFileSync(path, JSON.stringify({ mcpServers: { [name]: entry } }));
    }
  }
  return { project, home, markers };
}

const names = KINDS.map((kind) => `repo_${kind}`).sort();

describe("a cloned repository runs nothing unapproved by default", () => {
  it("discoverAndLoadMCPTools(cwd): no spawn, no !command, every server waits for approval", async () => {
    const { project, home, markers } = hostileProject();
    const result = await discoverAndLoadMCPTools(project, {
      discovery: { homeDir: home, env: {} },
      manager: { cache: null },
    });
    try {
      expect(readdirSync(markers)).toEqual([]);
      expect(result.tools).toEqual([]);
      expect(result.discovery?.needsApproval.map((entry) => entry.name).sort()).toEqual(names);
      expect(result.manager.getServerStates()).toEqual([]);
    } finally {
      await result.manager.close();
    }
  });

  it("new MCPManager(cwd).discoverAndConnect(): no spawn, no !command", async () => {
    const { project, home, markers } = hostileProject();
    const result = await manager({}, project).discoverAndConnect({ homeDir: home, env: {} });
    expect(readdirSync(markers)).toEqual([]);
    expect(result.discovery?.needsApproval.map((entry) => entry.name).sort()).toEqual(names);
  });

  it('trust: "all" on purpose runs them all (so the markers do tell)', async () => {
    const { project, home, markers } = hostileProject();
    const discovery: LoadConfigsOptions = { homeDir: home, env: {}, trust: "all" };
    await manager({}, project).discoverAndConnect(discovery);
    for (const kind of KINDS) {
      expect(existsSync(join(markers, `spawned-${kind}`)), `spawned-${kind}`).toBe(true);
      expect(existsSync(join(markers, `command-${kind}`)), `command-${kind}`).toBe(true);
    }
  });
});
