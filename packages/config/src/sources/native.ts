import { mcpRtPath } from "../mcp-rt-path.js";
import type { CapabilitySource, CapabilitySourceResult, DiscoveryContext } from "../types.js";
import { describeValue } from "../util/describe-value.js";
import { defineFileSource, type FileSourceFindings } from "./define-file-source.js";
import type { FileSourceFile } from "./file-source.js";

/**
 * mcp-rt's own files, highest priority: `.mcp-rt/mcp.json` in the project
 * and `~/.mcp-rt/mcp.json`, each `{ "mcpServers": { <name>: MCPServerConfig },
 * "disabledServers": [<name>…], "alwaysLoadServers": [<name>…] }`. Entries
 * are already in mcp-rt's shape. `disabledServers` turns off a server of that
 * name from any source, and `alwaysLoadServers` marks it `alwaysLoad`: that is
 * how a server defined in another client's file is switched off or pinned
 * here without editing that file.
 */
export function createNativeSource(): CapabilitySource {
  // Entries are already in mcp-rt's shape: nothing to map.
  return defineFileSource({
    id: "mcp-rt",
    name: "mcp-rt",
    priority: 800,
    files: nativeFiles,
    finish: nameLists,
  });
}

/** The files' `disabledServers` and `alwaysLoadServers`, beside their servers. */
function nameLists({ servers, issues, read }: FileSourceFindings): Required<CapabilitySourceResult> {
  const result: Required<CapabilitySourceResult> = {
    servers,
    issues,
    disabledServers: [],
    alwaysLoadServers: [],
    projectSettings: [],
  };
  for (const { file, document } of read) {
    for (const key of ["disabledServers", "alwaysLoadServers"] as const) {
      const names = document?.[key];
      if (names === undefined) continue;
      if (file.level === "project") result.projectSettings.push({ path: file.path, key, value: names });
      if (Array.isArray(names) && names.every((name) => typeof name === "string")) {
        result[key].push(...names);
      } else {
        result.issues.push({
          path: file.path,
          code: "CONFIG_INVALID",
          message: `${file.path}: "${key}" must be an array of server names, got ${describeValue(names)}`,
        });
      }
    }
  }
  return result;
}

function nativeFiles(ctx: DiscoveryContext): FileSourceFile[] {
  return [
    { path: mcpRtPath("mcp.json", ctx.cwd), level: "project", format: "json", key: "mcpServers" },
    { path: mcpRtPath("mcp.json", ctx.homeDir), level: "user", format: "json", key: "mcpServers" },
  ];
}
