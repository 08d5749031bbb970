import { join } from "node:path";
import { describeValue } from "../describe-value.js";
import type { CapabilitySource } from "../types.js";
import { createFileSource } from "./file-source.js";

/**
 * mcp-rt's own files, highest priority: `.mcp-rt/mcp.json` in the project
 * and `~/.mcp-rt/mcp.json`, each `{ "mcpServers": { <name>: MCPServerConfig },
 * "disabledServers": [<name>…] }`. Entries are already in mcp-rt's shape.
 * `disabledServers` turns off a server of that name from any source, which is
 * how a server defined in another client's file is switched off here without
 * editing that file.
 */
export function createNativeSource(): CapabilitySource {
  return createFileSource({
    id: "mcp-rt",
    name: "mcp-rt",
    priority: 800,
    files: (ctx) => [
      { path: join(ctx.cwd, ".mcp-rt", "mcp.json"), level: "project", format: "json", key: "mcpServers" },
      { path: join(ctx.homeDir, ".mcp-rt", "mcp.json"), level: "user", format: "json", key: "mcpServers" },
    ],
    mapEntry: (entry) => ({ config: entry }),
    finish(result, read) {
      for (const { file, document } of read) {
        const disabled = document?.disabledServers;
        if (disabled === undefined) continue;
        if (Array.isArray(disabled) && disabled.every((name) => typeof name === "string")) {
          result.disabledServers.push(...disabled);
        } else {
          result.issues.push({
            path: file.path,
            code: "CONFIG_INVALID",
            message: `${file.path}: "disabledServers" must be an array of server names, got ${describeValue(disabled)}`,
          });
        }
      }
      return result;
    },
  });
}
