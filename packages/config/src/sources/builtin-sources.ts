import type { CapabilitySource } from "../types.js";
import { createAntigravitySource } from "./antigravity.js";
import { createClaudeCodeSource } from "./claude-code.js";
import { createClaudeDesktopSource } from "./claude-desktop.js";
import { createCodexSource } from "./codex.js";
import { createCursorSource } from "./cursor.js";
import { createGeminiSource } from "./gemini.js";
import { createNativeSource } from "./native.js";
import { createVsCodeSource } from "./vscode.js";
import { createWindsurfSource } from "./windsurf.js";

/**
 * The built-in sources, highest priority first: mcp-rt, Claude Code,
 * Claude Desktop, Codex, Antigravity, Gemini CLI, Cursor, Windsurf, VS Code.
 *
 * @example
 * ```ts
 * // Read only Claude Code's and Cursor's files:
 * const sources = builtinSources.filter((s) => s.id === "claude-code" || s.id === "cursor");
 * await loadAllMCPConfigs(cwd, { sources });
 * ```
 */
export const builtinSources: readonly CapabilitySource[] = Object.freeze([
  createNativeSource(),
  createClaudeCodeSource(),
  createClaudeDesktopSource(),
  createCodexSource(),
  createAntigravitySource(),
  createGeminiSource(),
  createCursorSource(),
  createWindsurfSource(),
  createVsCodeSource(),
]);
