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
 * The paths of this machine's own platform are read whatever `ctx.platform`
 * says, and on Windows both `%ProgramData%` and `C:\ProgramData` when the
 * variable names another folder, so options and the environment can add a
 * place, never hide one. With `ctx.systemRoot`, the same paths under it are
 * read too, in addition (tests and containers): a policy is only ever added to.
 */
export function policyPaths(ctx: Pick<DiscoveryContext, "env" | "platform" | "systemRoot">): PolicyPaths {
  const platforms = [...new Set([ctx.platform, process.platform])];
  const paths: PolicyPaths = { mcpRt: [], claudeCode: [], codex: [] };
  for (const platform of platforms) {
    const found = platformPaths(platform, ctx.env);
    paths.mcpRt.push(...found.mcpRt);
    paths.claudeCode.push(...found.claudeCode);
    paths.codex.push(...found.codex);
  }
  const root = ctx.systemRoot;
  const under = (path: string): string[] =>
    root === undefined || root === "" ? [] : [join(root, ...posix.normalize(toPosix(path)).split("/"))];
  const all = (list: string[]): string[] => [...new Set([...list, ...list.flatMap(under)])];
  return { mcpRt: all(paths.mcpRt), claudeCode: all(paths.claudeCode), codex: all(paths.codex) };
}

function platformPaths(platform: NodeJS.Platform, env: DiscoveryContext["env"]): PolicyPaths {
  switch (platform) {
    case "win32": {
      const programData = [...new Set([env.ProgramData || "C:\\ProgramData", "C:\\ProgramData"])];
      return {
        mcpRt: programData.map((dir) => win32.join(dir, "mcp-rt", "policy.json")),
        claudeCode: ["C:\\Program Files\\ClaudeCode"],
        codex: programData.map((dir) => win32.join(dir, "OpenAI", "Codex", "requirements.toml")),
      };
    }
    case "darwin":
      return {
        mcpRt: ["/Library/Application Support/mcp-rt/policy.json"],
        claudeCode: ["/Library/Application Support/ClaudeCode"],
        codex: ["/etc/codex/requirements.toml"],
      };
    default:
      return {
        mcpRt: ["/etc/mcp-rt/policy.json"],
        claudeCode: ["/etc/claude-code"],
        codex: ["/etc/codex/requirements.toml"],
      };
  }
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
