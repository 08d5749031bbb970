import { join } from "node:path";
import { appConfigDir } from "../app-config-dir.js";
import type { CapabilitySource } from "../types.js";
import { mapClaudeEntry } from "./claude-code.js";
import { createFileSource } from "./file-source.js";

/**
 * Claude Desktop's `claude_desktop_config.json` in the OS's app-config folder
 * (`~/Library/Application Support/Claude`, `%APPDATA%\Claude`,
 * `~/.config/Claude`); user level only. Same entry format as Claude Code.
 */
export function createClaudeDesktopSource(): CapabilitySource {
  return createFileSource({
    id: "claude-desktop",
    name: "Claude Desktop",
    priority: 600,
    files: (ctx) => [
      {
        path: join(appConfigDir(ctx), "Claude", "claude_desktop_config.json"),
        level: "user",
        format: "json",
        key: "mcpServers",
      },
    ],
    // Claude Desktop has no project folder for `${CLAUDE_PROJECT_DIR}`.
    mapEntry: (entry) => ({ ...mapClaudeEntry(entry), interpolation: { syntax: "posix" } }),
  });
}
