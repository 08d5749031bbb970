import { join } from "node:path";
import { appConfigDir } from "../app-config-dir.js";
import type { CapabilitySource, DiscoveryContext } from "../types.js";
import { mapClaudeEntry } from "./claude-code.js";
import { type FileSourceFile, readFileSource } from "./file-source.js";

const CLAUDE_DESKTOP = { id: "claude-desktop", name: "Claude Desktop" };

/**
 * Claude Desktop's `claude_desktop_config.json` in the OS's app-config folder
 * (`~/Library/Application Support/Claude`, `%APPDATA%\Claude`,
 * `~/.config/Claude`); user level only. Same entry format as Claude Code.
 */
export function createClaudeDesktopSource(): CapabilitySource {
  return {
    ...CLAUDE_DESKTOP,
    priority: 600,
    paths: (ctx) => [desktopFile(ctx).path],
    async load(ctx) {
      const { entries, issues } = await readFileSource({
        source: CLAUDE_DESKTOP,
        files: [desktopFile(ctx)],
        ctx,
      });
      // Claude Desktop has no project folder for `${CLAUDE_PROJECT_DIR}`.
      const posix = { interpolation: { syntax: "posix" as const } };
      return {
        servers: entries.map(({ server, entry }) => ({
          ...server,
          ...(entry && { ...mapClaudeEntry(entry), ...posix }),
        })),
        issues,
      };
    },
  };
}

function desktopFile(ctx: DiscoveryContext): FileSourceFile {
  const path = join(appConfigDir(ctx), "Claude", "claude_desktop_config.json");
  return { path, level: "user", format: "json", key: "mcpServers" };
}
