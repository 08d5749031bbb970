import { extname } from "node:path";
import {
  type CapabilitySource,
  type ConfigFormat,
  type DiscoveredServer,
  readConfigFile,
  type SourceMeta,
} from "@mcp-rt/session";

/** The keys a server map may sit under: Claude/Cursor/mcp-rt, VS Code, Codex. */
const MAP_KEYS = ["mcpServers", "servers", "mcp_servers"] as const;

function formatOf(path: string): ConfigFormat {
  return extname(path).toLowerCase() === ".toml" ? "toml" : "jsonc";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The source behind `--config <file>`: one file the user named, read before
 * every other source (highest priority), its entries in mcp-rt's shape
 * (`command`/`args`/`env`/`cwd` or `url`/`type`/`headers`) under `mcpServers`
 * (or VS Code's `servers`, Codex's `mcp_servers`). It is the user's explicit
 * choice, so its servers are user-level: they need no project approval.
 * A missing or unreadable file is an issue naming the file, never a crash.
 */
export function createConfigFileSource(path: string): CapabilitySource {
  const source: SourceMeta = { provider: "cli", providerName: "--config", path, level: "user" };
  return {
    id: source.provider,
    name: source.providerName,
    priority: 1000,
    paths: () => [path],
    async load() {
      const read = await readConfigFile(path, formatOf(path));
      if (read.status === "missing") {
        return {
          servers: [],
          issues: [
            { path, code: "CONFIG_UNREADABLE", message: `${path}: no such file (given with --config)` },
          ],
        };
      }
      if (read.status === "error") return { servers: [], issues: [read.issue] };
      const document = read.document;
      const key = isObject(document) ? MAP_KEYS.find((name) => document[name] !== undefined) : undefined;
      const map = key && isObject(document) ? document[key] : undefined;
      if (!isObject(map)) {
        const problem = key
          ? `"${key}" must be an object of server configs`
          : `it has no "mcpServers" object`;
        return {
          servers: [],
          issues: [
            {
              path,
              code: "CONFIG_INVALID",
              message: `${path}: ${problem}; write { "mcpServers": { "<name>": { "command": "…" } } }`,
            },
          ],
        };
      }
      const servers: DiscoveredServer[] = Object.entries(map).map(([name, config]) => ({
        name,
        config,
        source: { ...source },
      }));
      return { servers, issues: [] };
    },
  };
}
