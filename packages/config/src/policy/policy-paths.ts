import { join, posix, win32 } from "node:path";
import type { DiscoveryContext } from "../types.js";

/** Where the policies an organisation deploys live on this OS (see {@link policyPaths}). */
export interface PolicyPaths {
  /** mcp-rt's own `policy.json` files. */
  mcpRt: string[];
  /** Claude Code's managed folders: `managed-settings.json`, `managed-settings.d/` and `managed-mcp.json` are in them. */
  claudeCode: string[];
  /** Codex's `requirements.toml` files. */
  codex: string[];
}

/**
 * The system files of each policy for `ctx.platform`, as each client
 * documents them:
 *
 * - mcp-rt: `/etc/mcp-rt/policy.json`, `/Library/Application Support/mcp-rt/policy.json`
 *   on macOS, `%ProgramData%\mcp-rt\policy.json` on Windows;
 * - Claude Code: `/etc/claude-code/`, `/Library/Application Support/ClaudeCode/`,
 *   `C:\Program Files\ClaudeCode\`;
 * - Codex: `/etc/codex/requirements.toml` on Unix, macOS included,
 *   `%ProgramData%\OpenAI\Codex\requirements.toml` on Windows.
 *
 * On Windows both `%ProgramData%` and `C:\ProgramData` are read when the
 * variable names another folder, so the environment can add a place, never
 * hide one. With `ctx.systemRoot`, the same paths under it are read too, in
 * addition (tests and containers): a policy is only ever added to.
 */
export function policyPaths(ctx: Pick<DiscoveryContext, "env" | "platform" | "systemRoot">): PolicyPaths {
  const programData = [...new Set([ctx.env.ProgramData || "C:\\ProgramData", "C:\\ProgramData"])];
  let paths: PolicyPaths;
  switch (ctx.platform) {
    case "win32":
      paths = {
        mcpRt: programData.map((dir) => win32.join(dir, "mcp-rt", "policy.json")),
        claudeCode: ["C:\\Program Files\\ClaudeCode"],
        codex: programData.map((dir) => win32.join(dir, "OpenAI", "Codex", "requirements.toml")),
      };
      break;
    case "darwin":
      paths = {
        mcpRt: ["/Library/Application Support/mcp-rt/policy.json"],
        claudeCode: ["/Library/Application Support/ClaudeCode"],
        codex: ["/etc/codex/requirements.toml"],
      };
      break;
    default:
      paths = {
        mcpRt: ["/etc/mcp-rt/policy.json"],
        claudeCode: ["/etc/claude-code"],
        codex: ["/etc/codex/requirements.toml"],
      };
  }
  const root = ctx.systemRoot;
  if (root === undefined || root === "") return paths;
  const under = (path: string): string => join(root, ...posix.normalize(toPosix(path)).split("/"));
  const both = (list: string[]): string[] => [...new Set([...list, ...list.map(under)])];
  return { mcpRt: both(paths.mcpRt), claudeCode: both(paths.claudeCode), codex: both(paths.codex) };
}

// `C:\ProgramData\mcp-rt` → `C/ProgramData/mcp-rt`: a Windows path as a folder under a root.
function toPosix(path: string): string {
  return path.replace(/^([A-Za-z]):/, "$1").replace(/\\/g, "/");
}

/**
 * The `managed-mcp.json` files of Claude Code's managed folders: where one
 * exists, its servers are the only Claude Code servers that start.
 */
export function claudeManagedMcpFiles(
  ctx: Pick<DiscoveryContext, "env" | "platform" | "systemRoot">,
): string[] {
  return policyPaths(ctx).claudeCode.map((dir) => join(dir, "managed-mcp.json"));
}
