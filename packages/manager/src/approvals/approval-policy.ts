import {
  type MCPPoisoningPolicy,
  type MCPServerCommon,
  type MCPToolChangesPolicy,
  McpRtError,
  POISONING_POLICIES,
  type SourceMeta,
  TOOL_CHANGES_POLICIES,
} from "@mcp-rt/config";

/** What a server's changed and poisoned tools do, as decided for it. */
export interface ApprovalPolicies {
  toolChanges: MCPToolChangesPolicy;
  poisoning: MCPPoisoningPolicy;
}

/**
 * The library's defaults. `"hold"` for both: a library has no user of its
 * own to ask, and a tool held is one the host can still offer after a
 * `tools:held` event, while a tool exposed has been read by the model.
 */
export const DEFAULT_APPROVAL_POLICIES: ApprovalPolicies = { toolChanges: "hold", poisoning: "hold" };

/** `own` where it may decide, else `host`: a project's file may only make the setting stricter. */
function stricter<T extends string>(
  order: readonly T[],
  host: T,
  own: T | undefined,
  level: string | undefined,
): T {
  if (own === undefined) return host;
  if (level !== "project") return own;
  return order.indexOf(own) > order.indexOf(host) ? own : host;
}

/**
 * A server's policies: its config's `toolChanges` and `poisoning` over the
 * host's. A project-level entry (its file came with the repository) may
 * only tighten them: `"allow"` in a cloned `.mcp.json` does not loosen a
 * host's `"hold"`.
 */
export function serverPolicies(
  host: ApprovalPolicies,
  config: Pick<MCPServerCommon, "toolChanges" | "poisoning">,
  source: SourceMeta | undefined,
): ApprovalPolicies {
  return {
    toolChanges: stricter(TOOL_CHANGES_POLICIES, host.toolChanges, config.toolChanges, source?.level),
    poisoning: stricter(POISONING_POLICIES, host.poisoning, config.poisoning, source?.level),
  };
}

/**
 * The manager's `toolChanges` and `poisoning` options, checked.
 *
 * @throws McpRtError `CONFIG_INVALID` naming the option and its values.
 */
export function resolveApprovalPolicies(options: {
  toolChanges?: MCPToolChangesPolicy | undefined;
  poisoning?: MCPPoisoningPolicy | undefined;
}): ApprovalPolicies {
  const {
    toolChanges = DEFAULT_APPROVAL_POLICIES.toolChanges,
    poisoning = DEFAULT_APPROVAL_POLICIES.poisoning,
  } = options;
  if (!(TOOL_CHANGES_POLICIES as readonly unknown[]).includes(toolChanges)) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCPManager option toolChanges: expected "ask", "hold" or "allow", got ${JSON.stringify(toolChanges)}`,
    );
  }
  if (!(POISONING_POLICIES as readonly unknown[]).includes(poisoning)) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCPManager option poisoning: expected "hold" or "warn", got ${JSON.stringify(poisoning)}`,
    );
  }
  return { toolChanges, poisoning };
}
