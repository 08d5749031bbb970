import { join } from "node:path";
import type { CapabilitySource, DiscoveryContext } from "../types.js";
import { defineFileSource } from "./define-file-source.js";
import type { EntryMapping, FileSourceFile } from "./file-source.js";
import { mapWindsurfEntry } from "./windsurf.js";

/**
 * Maps an Antigravity entry, whose format is Windsurf's: `command`, `args`,
 * `env`; `serverUrl` (or `url`) → `url` (Streamable HTTP with SSE fallback);
 * `headers`; `disabled: true` → `enabled: false`; `disabledTools` →
 * `excludeTools`. Antigravity documents no placeholder form of its own, so
 * values use mcp-rt's `${VAR}` and `${VAR:-default}` (`${env:VAR}` is left
 * as written).
 */
export function mapAntigravityEntry(entry: Record<string, unknown>): EntryMapping {
  return { ...mapWindsurfEntry(entry), interpolation: { syntax: "posix" } };
}

/**
 * The Antigravity CLI's (`agy`) `~/.gemini/config/mcp_config.json`, then the
 * Antigravity IDE's `~/.gemini/antigravity/mcp_config.json`, `mcpServers`;
 * user level only. A name in both files is the CLI's; the IDE's entry is
 * reported as shadowed. Above Gemini CLI, which the Antigravity CLI replaced:
 * a user who moved on keeps the old `~/.gemini/settings.json` around, and
 * the file they edit now should win.
 */
export function createAntigravitySource(): CapabilitySource {
  return defineFileSource({
    id: "antigravity",
    name: "Antigravity",
    priority: 450,
    files: antigravityFiles,
    map: mapAntigravityEntry,
  });
}

function antigravityFiles(ctx: DiscoveryContext): FileSourceFile[] {
  return [
    {
      path: join(ctx.homeDir, ".gemini", "config", "mcp_config.json"),
      level: "user",
      format: "json",
      key: "mcpServers",
    },
    {
      path: join(ctx.homeDir, ".gemini", "antigravity", "mcp_config.json"),
      level: "user",
      format: "json",
      key: "mcpServers",
    },
  ];
}
