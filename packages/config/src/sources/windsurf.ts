import { join } from "node:path";
import type { CapabilitySource, DiscoveryContext } from "../types.js";
import { defineFileSource } from "./define-file-source.js";
import { pickFields } from "./entry-fields.js";
import type { EntryMapping, FileSourceFile } from "./file-source.js";

/**
 * Maps a Windsurf entry: `command`, `args`, `env`; `serverUrl` (or `url`) →
 * `url` (Streamable HTTP with SSE fallback); `headers`; `disabled: true` →
 * `enabled: false` (over mcp-rt's own `enabled`); `disabledTools` → `excludeTools`.
 * Values may use Windsurf's `${env:VAR}` as well as `${VAR}`.
 */
export function mapWindsurfEntry(entry: Record<string, unknown>): EntryMapping {
  const config = pickFields(entry, ["command", "args", "env", "headers", "enabled"]);
  const fieldNames: Record<string, string> = {};
  const url = entry.serverUrl ?? entry.url;
  if (url !== undefined) {
    config.url = url;
    if (entry.serverUrl !== undefined) fieldNames.url = "serverUrl";
  }
  if (entry.disabled !== undefined) {
    config.enabled = typeof entry.disabled === "boolean" ? !entry.disabled : entry.disabled;
    fieldNames.enabled = "disabled";
  }
  if (entry.disabledTools !== undefined) {
    config.excludeTools = entry.disabledTools;
    fieldNames.excludeTools = "disabledTools";
  }
  return { config, interpolation: { syntax: "windsurf" }, fieldNames };
}

/**
 * Windsurf's `~/.codeium/windsurf/mcp_config.json` (user) and
 * `.windsurf/mcp_config.json` (project), `mcpServers`.
 */
export function createWindsurfSource(): CapabilitySource {
  return defineFileSource({
    id: "windsurf",
    name: "Windsurf",
    priority: 200,
    files: windsurfFiles,
    map: mapWindsurfEntry,
  });
}

function windsurfFiles(ctx: DiscoveryContext): FileSourceFile[] {
  return [
    {
      path: join(ctx.cwd, ".windsurf", "mcp_config.json"),
      level: "project",
      format: "json",
      key: "mcpServers",
    },
    {
      path: join(ctx.homeDir, ".codeium", "windsurf", "mcp_config.json"),
      level: "user",
      format: "json",
      key: "mcpServers",
    },
  ];
}
