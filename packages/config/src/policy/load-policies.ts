import { join } from "node:path";
import type { DiscoveryContext } from "../types.js";
import { errorMessage } from "../util/error-message.js";
import { readClaudeCodePolicy } from "./claude-code-policy.js";
import { readCodexPolicies } from "./codex-policy.js";
import { POLICY_VARIABLE, readMcpRtPolicies } from "./mcp-rt-policy.js";
import { policyPaths } from "./policy-paths.js";
import { allPolicies, failClosed, type Policies } from "./server-policy.js";

/**
 * Every policy in force for a load: mcp-rt's own (every server), Claude
 * Code's managed policy (its servers) and Codex's requirements (its
 * servers). They are read only from the system paths of `ctx.platform`,
 * the file `$MCP_RT_POLICY` names and, in addition, `ctx.systemRoot`:
 * never from a project, and no option or setting takes one away. Never
 * throws; a file that cannot be used blocks what it governs.
 */
export async function loadPolicies(ctx: DiscoveryContext): Promise<Policies> {
  try {
    const [mcpRt, claudeCode, codex] = await Promise.all([
      readMcpRtPolicies(ctx),
      readClaudeCodePolicy(ctx),
      readCodexPolicies(ctx),
    ]);
    return allPolicies(
      [...mcpRt.policies, ...(claudeCode.policy ? [claudeCode.policy] : []), ...codex.policies],
      [...mcpRt.issues, ...claudeCode.issues, ...codex.issues],
      policyFiles(ctx),
    );
  } catch (error) {
    // Not expected (every reader returns its problems); if it happens, nothing starts unchecked.
    const problem = `the policy files could not be read (${errorMessage(error)})`;
    return allPolicies(
      [failClosed("mcp-rt", () => true, "policy", problem)],
      [{ path: "policy", code: "CONFIG_UNREADABLE", message: `${problem}; every MCP server is blocked` }],
    );
  }
}

/** The policy files a change of which changes what may start (Claude Code's `managed-mcp.json` is its source's). */
function policyFiles(ctx: DiscoveryContext): string[] {
  const paths = policyPaths(ctx);
  const named = ctx.env[POLICY_VARIABLE];
  return [
    ...paths.mcpRt,
    ...(named ? [named] : []),
    ...paths.claudeCode.map((dir) => join(dir, "managed-settings.json")),
    ...paths.codex,
  ];
}
