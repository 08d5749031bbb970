import type { MCPToolDefinition } from "@mcp-rt/config";
import type { MCPHeldTool, MCPServerChange } from "./approval-check.js";
import type { ApprovalPolicies } from "./approval-policy.js";
import type { MCPToolDiffEntry } from "./definition-diff.js";
import type { MCPPoisoningFinding } from "./poisoning-scan.js";

/** A held tool as the user reviews it: what it was when approved, and how it differs now. */
export interface MCPHeldToolReview extends MCPHeldTool {
  /** The definition approved before, when there was one (and it could be read). */
  approved?: MCPToolDefinition;
  /** How it differs from `approved` (every field it has, when there is none). */
  diff: MCPToolDiffEntry[];
}

/** What `reviewTools` shows of one server. */
export interface MCPToolReview {
  /** The server's config name. */
  server: string;
  /** Its policies (the host's, tightened or set by its config). */
  toolChanges: ApprovalPolicies["toolChanges"];
  poisoning: ApprovalPolicies["poisoning"];
  /** Where its approvals are kept; absent without an approvals store (tool changes are not checked then). */
  store?: string;
  /** What changed of the server itself since its tools were approved, if anything. */
  serverChange?: MCPServerChange;
  /** Its held tools, each with its diff. */
  held: MCPHeldToolReview[];
  /** Everything the poisoning check found in what it offers now, held or not. */
  findings: MCPPoisoningFinding[];
}

/** What the manager's `tools:held` event carries. */
export interface MCPToolsHeld {
  /** The server's config name. */
  name: string;
  /** Its policy: `"ask"` (a host asks the user now) or `"hold"` (a host only notes it); `"allow"` holds only poisoned tools. */
  toolChanges: ApprovalPolicies["toolChanges"];
  /** The tools held that listeners were not told of yet, each with its diff. */
  held: MCPHeldToolReview[];
  /** What changed of the server itself, when something did. */
  serverChange?: MCPServerChange;
}
