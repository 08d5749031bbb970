import type { ToolApprovalIdentity } from "@mcp-rt/cache";
import { isStdioConfig, type MCPServerConfig, redactText, type SourceMeta } from "@mcp-rt/config";
import { withoutVersion } from "./version-specifiers.js";

/**
 * Which server approvals are kept for: what the user controls of it, its
 * config name and the file (and level) that defines it. A server without a
 * known source (`connectServers` called without `sources`) is keyed by its
 * name alone.
 */
export function approvalIdentity(name: string, source: SourceMeta | undefined): ToolApprovalIdentity {
  return { server: name, source: source?.path ?? "", level: source?.level ?? "user" };
}

/**
 * What a server runs, as its approvals compare it: its command and
 * arguments (or its URL) without version specifiers, with secrets hidden.
 * An upgrade (`pkg@1.2` → `pkg@1.3`) or a rotated token runs the same
 * thing; another package, folder or host does not.
 *
 * @example approvalTarget({ command: "npx", args: ["-y", "@playwright/mcp@0.0.86"] }) // "npx -y @playwright/mcp"
 */
export function approvalTarget(config: MCPServerConfig): string {
  const words = isStdioConfig(config) ? [config.command, ...(config.args ?? [])] : [config.url];
  return redactText(words.map(withoutVersion).join(" "));
}
