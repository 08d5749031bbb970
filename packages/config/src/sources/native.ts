import { join } from "node:path";
import { describeValue } from "../describe-value.js";
import type { CapabilitySource, CapabilitySourceResult } from "../types.js";
import {
  allowed,
  collectServers,
  mergeResults,
  readSourceFile,
  type SourceFile,
  sourceMeta,
} from "./file-source.js";

const ID = { id: "mcp-rt", name: "mcp-rt" };

/**
 * mcp-rt's own files (§7), highest priority: `.mcp-rt/mcp.json` in the project
 * and `~/.mcp-rt/mcp.json`, each `{ "mcpServers": { <name>: MCPServerConfig },
 * "disabledServers": [<name>…] }`. Entries are already in mcp-rt's shape.
 * `disabledServers` turns off a server of that name from any source, which is
 * how a server defined in another client's file is switched off here without
 * editing that file.
 */
export function createNativeSource(): CapabilitySource {
  return {
    ...ID,
    priority: 800,
    async load(ctx) {
      const files: SourceFile[] = [
        { path: join(ctx.cwd, ".mcp-rt", "mcp.json"), level: "project", format: "json" },
        { path: join(ctx.homeDir, ".mcp-rt", "mcp.json"), level: "user", format: "json" },
      ];
      const results = await Promise.all(
        files
          .filter((file) => allowed(file, ctx))
          .map(async (file): Promise<CapabilitySourceResult> => {
            const { document, issues } = await readSourceFile(file);
            if (document === undefined) return { servers: [], issues };
            const result = collectServers({
              map: document.mcpServers,
              keyPath: "mcpServers",
              source: sourceMeta(ID, file),
              document,
              ctx,
              mapEntry: (entry) => ({ config: entry }),
            });
            const disabled = document.disabledServers;
            if (disabled === undefined) return result;
            if (Array.isArray(disabled) && disabled.every((name) => typeof name === "string")) {
              return { ...result, disabledServers: disabled };
            }
            result.issues.push({
              path: file.path,
              code: "CONFIG_INVALID",
              message: `${file.path}: "disabledServers" must be an array of server names, got ${describeValue(disabled)}`,
            });
            return result;
          }),
      );
      return mergeResults(results);
    },
  };
}
