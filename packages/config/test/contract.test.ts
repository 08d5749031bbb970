import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  type AuthStorage,
  appConfigDir,
  type CapabilitySource,
  createAntigravitySource,
  createClaudeCodeSource,
  createClaudeDesktopSource,
  createCodexSource,
  createCursorSource,
  createGeminiSource,
  createNativeSource,
  createVsCodeSource,
  createWindsurfSource,
  type DiscoveryContext,
  type Logger,
} from "@mcp-rt/config";
import {
  authStorageContractTests,
  type CapabilitySourceFixture,
  capabilitySourceContractTests,
  loggerContractTests,
  type SourceLevel,
} from "@mcp-rt/config/contract";
import { describe, it } from "vitest";

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** A source whose files are JSON with the servers under `key`, at a path per level. */
function jsonSource(
  source: () => CapabilitySource,
  paths: Partial<Record<SourceLevel, (ctx: DiscoveryContext) => string>>,
  key = "mcpServers",
): CapabilitySourceFixture {
  const pathAt = (ctx: DiscoveryContext, level: SourceLevel): string => paths[level]!(ctx);
  return {
    source,
    levels: Object.keys(paths) as SourceLevel[],
    writeServer: (ctx, name, level) =>
      write(
        pathAt(ctx, level),
        JSON.stringify({ [key]: { [name]: { command: "node", args: ["server.js"] } } }),
      ),
    writeBroken: (ctx, level) => write(pathAt(ctx, level), "{ not json"),
  };
}

const home =
  (...parts: string[]) =>
  (ctx: DiscoveryContext) =>
    join(ctx.homeDir, ...parts);
const project =
  (...parts: string[]) =>
  (ctx: DiscoveryContext) =>
    join(ctx.cwd, ...parts);
const appConfig =
  (...parts: string[]) =>
  (ctx: DiscoveryContext) =>
    join(appConfigDir(ctx), ...parts);

const fixtures: Record<string, CapabilitySourceFixture> = {
  native: jsonSource(createNativeSource, {
    user: home(".mcp-rt", "mcp.json"),
    project: project(".mcp-rt", "mcp.json"),
  }),
  "Claude Code": jsonSource(createClaudeCodeSource, {
    user: home(".claude.json"),
    project: project(".mcp.json"),
  }),
  "Claude Desktop": jsonSource(createClaudeDesktopSource, {
    user: appConfig("Claude", "claude_desktop_config.json"),
  }),
  Antigravity: jsonSource(createAntigravitySource, { user: home(".gemini", "config", "mcp_config.json") }),
  "Antigravity, the IDE's file": jsonSource(createAntigravitySource, {
    user: home(".gemini", "antigravity", "mcp_config.json"),
  }),
  "Gemini CLI": jsonSource(createGeminiSource, {
    user: home(".gemini", "settings.json"),
    project: project(".gemini", "settings.json"),
  }),
  Cursor: jsonSource(createCursorSource, {
    user: home(".cursor", "mcp.json"),
    project: project(".cursor", "mcp.json"),
  }),
  Windsurf: jsonSource(createWindsurfSource, {
    user: home(".codeium", "windsurf", "mcp_config.json"),
    project: project(".windsurf", "mcp_config.json"),
  }),
  "VS Code": jsonSource(
    createVsCodeSource,
    { user: appConfig("Code", "User", "mcp.json"), project: project(".vscode", "mcp.json") },
    "servers",
  ),
  Codex: {
    source: createCodexSource,
    levels: ["user", "project"],
    writeServer: (ctx, name, level) =>
      write(
        level === "user"
          ? join(ctx.homeDir, ".codex", "config.toml")
          : join(ctx.cwd, ".codex", "config.toml"),
        `[mcp_servers.${name}]\ncommand = "node"\nargs = ["server.js"]\n`,
      ),
    writeBroken: (ctx, level) =>
      write(
        level === "user"
          ? join(ctx.homeDir, ".codex", "config.toml")
          : join(ctx.cwd, ".codex", "config.toml"),
        "[mcp_servers.broken\ncommand = ",
      ),
  },
};

for (const [name, fixture] of Object.entries(fixtures)) {
  describe(`the capability-source contract: ${name}`, () => {
    capabilitySourceContractTests(it, fixture);
  });
}

describe("the auth-storage contract, on a Map-backed store", () => {
  const shared = new Map<string, string>();
  const mapStorage = (): AuthStorage => ({
    get: async (key) => shared.get(key),
    set: async (key, value) => {
      shared.set(key, value);
    },
    delete: async (key) => {
      shared.delete(key);
    },
  });
  authStorageContractTests(it, mapStorage);
});

describe("the logger contract", () => {
  const ignore = (): void => {};
  describe("a silent logger", () => {
    loggerContractTests(it, (): Logger => ({ debug: ignore, info: ignore, warn: ignore, error: ignore }));
  });
  describe("a logger that keeps its lines as JSON", () => {
    loggerContractTests(it, (): Logger => {
      const lines: string[] = [];
      const at = (level: string) => (message: string, data?: unknown) => {
        let detail = "";
        try {
          detail = data === undefined ? "" : JSON.stringify(data);
        } catch {
          detail = String(data);
        }
        lines.push(`${level} ${message} ${detail}`);
      };
      return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
    });
  });
});
