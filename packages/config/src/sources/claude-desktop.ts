import { join } from "node:path";
import { appConfigDir } from "../app-config-dir.js";
import type { CapabilitySource, DiscoveryContext } from "../types.js";
import { mapClaudeEntry } from "./claude-code.js";
import { defineFileSource } from "./define-file-source.js";
import type { EntryMapping, FileSourceFile } from "./file-source.js";

/**
 * Claude Desktop's `claude_desktop_config.json` in the OS's app-config folder
 * (`~/Library/Application Support/Claude`, `%APPDATA%\Claude`,
 * `~/.config/Claude`); user level only. Same entry format as Claude Code.
 */
export function createClaudeDesktopSource(): CapabilitySource {
  return defineFileSource({
    id: "claude-desktop",
    name: "Claude Desktop",
    priority: 600,
    files: desktopFiles,
    map: mapDesktopEntry,
  });
}

/** A Claude entry; Claude Desktop has no project folder for `${CLAUDE_PROJECT_DIR}`. */
function mapDesktopEntry(entry: Record<string, unknown>): EntryMapping {
  return { ...mapClaudeEntry(entry), interpolation: { syntax: "posix" } };
}

function desktopFiles(ctx: DiscoveryContext): FileSourceFile[] {
  const path = join(appConfigDir(ctx), "Claude", "claude_desktop_config.json");
  return [{ path, level: "user", format: "json", key: "mcpServers" }];
}
