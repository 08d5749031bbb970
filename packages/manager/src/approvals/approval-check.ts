import { type ToolApprovalRecord, toolDefinitionDigest } from "@mcp-rt/cache";
import type {
  MCPPoisoningPolicy,
  MCPPromptDefinition,
  MCPResourceDefinition,
  MCPResourceTemplateDefinition,
  MCPToolChangesPolicy,
  MCPToolDefinition,
} from "@mcp-rt/config";
import { type MCPPoisoningFinding, scanServerText, scanTool } from "./poisoning-scan.js";

/**
 * Why a tool is held: `new` (not in the approvals), `changed` (its
 * definition differs from the one approved), `server-changed` (the server
 * runs another command or URL, or calls itself by another `serverInfo`
 * name, than when its tools were approved), `unverified` (its approvals
 * are refused: not signed with this installation's key), `poisoned` (a
 * strong rule of the poisoning check, under `poisoning: "hold"`).
 */
export type MCPHoldReason = "new" | "changed" | "server-changed" | "unverified" | "poisoned";

/** A tool kept from the model until the user approves it. */
export interface MCPHeldTool {
  /** Its name, as the server lists it. */
  name: string;
  /** Why, most telling first (`poisoned` before the drift). */
  reasons: MCPHoldReason[];
  /** What the poisoning check found in it (strong and weak). */
  findings: MCPPoisoningFinding[];
  /** True when the user chose to keep holding this very definition: held without asking again. */
  kept: boolean;
  /** The definition held. */
  definition: MCPToolDefinition;
  /** Its digest (`toolDefinitionDigest`). */
  digest: string;
}

/** What changed of the server itself since its tools were approved. */
export interface MCPServerChange {
  /** What it runs (command and arguments without versions, or URL): approved, then now. */
  target?: { before: string; after: string };
  /** Its `serverInfo.name`: approved, then now. */
  serverInfoName?: { before: string; after: string };
}

/** The approvals a check compares with. */
export interface ApprovalBasis {
  /** Whether drift is judged (an approvals store is in use and could be read). */
  drift: boolean;
  /** The server's approvals (the store's, or this process's own without a store); `undefined`: first sight. */
  record: ToolApprovalRecord | undefined;
  /** Set when the stored approvals are refused (forged, planted): every tool is held as `unverified`. */
  refused?: string | undefined;
}

/** What {@link checkToolApprovals} takes: one server's tools and texts now, and how to judge them. */
export interface ApprovalCheckInput {
  /** The tools the config lets through (`filterServerTools`): those that would be exposed. */
  tools: readonly MCPToolDefinition[];
  basis: ApprovalBasis;
  /** What the server runs now (`approvalTarget`). */
  target: string;
  /** Its `serverInfo.name` now, when known. */
  serverInfoName: string | undefined;
  toolChanges: MCPToolChangesPolicy;
  poisoning: MCPPoisoningPolicy;
  prompts?: readonly MCPPromptDefinition[];
  resources?: readonly MCPResourceDefinition[];
  resourceTemplates?: readonly MCPResourceTemplateDefinition[];
  instructions?: string | undefined;
  /** Distinctive tool names of the other servers (the `other-tools` rule), asked for only when a tool is read. */
  otherTools?: () => ReadonlySet<string>;
}

/** What a check decided. */
export interface ApprovalVerdict {
  /** The tools kept from the model. */
  held: MCPHeldTool[];
  /**
   * The definitions to record as approved now (first sight, or `toolChanges:
   * "allow"`); `undefined` when nothing is to be written. An empty list still
   * records the server (a first sight with no tools), so that a tool added
   * later is new.
   */
  record: MCPToolDefinition[] | undefined;
  /** Everything the poisoning check found: in the tools it read (not those approved as they are), prompts, resources, instructions. */
  findings: MCPPoisoningFinding[];
  /** True when the instructions carry a strong finding under `poisoning: "hold"`: they are not passed on. */
  withholdInstructions: boolean;
  /** What changed of the server itself, when something did. */
  serverChange: MCPServerChange | undefined;
}

/** What changed of the server since `record`, if anything. */
function serverChangeOf(
  record: ToolApprovalRecord,
  target: string,
  serverInfoName: string | undefined,
): MCPServerChange | undefined {
  const change: MCPServerChange = {};
  if (record.target !== target) change.target = { before: record.target, after: target };
  // A name is compared only when both are known: a cached entry may not have one.
  if (
    serverInfoName !== undefined &&
    record.serverInfoName !== undefined &&
    record.serverInfoName !== serverInfoName
  ) {
    change.serverInfoName = { before: record.serverInfoName, after: serverInfoName };
  }
  return change.target || change.serverInfoName ? change : undefined;
}

/**
 * Decides which of a server's tools the model may have, against what the
 * user approved (docs/architecture.md, "Approved tool definitions"). A tool
 * whose digest is approved, on a server that still runs what it ran then, is
 * exposed without a second look. Any other is read by the poisoning check:
 * a strong finding holds it under `poisoning: "hold"`. With approvals in use,
 * a new or changed tool (all of them, when the server runs another command
 * or calls itself by another name, or when its approvals are refused) is
 * drift: held under `"ask"` and `"hold"`, recorded under `"allow"`. At first
 * sight everything not held is recorded. A removed tool is not drift.
 */
export function checkToolApprovals(input: ApprovalCheckInput): ApprovalVerdict {
  const { basis, tools, poisoning, toolChanges } = input;
  const { record } = basis;
  const approved = record?.tools ?? {};
  const serverChange =
    basis.drift && record ? serverChangeOf(record, input.target, input.serverInfoName) : undefined;
  const held: MCPHeldTool[] = [];
  const findings: MCPPoisoningFinding[] = [];
  const toRecord: MCPToolDefinition[] = [];
  let others: ReadonlySet<string> | undefined;
  for (const tool of tools) {
    const digest = toolDefinitionDigest(tool);
    const isApproved = approved[tool.name] === digest;
    if (isApproved && !serverChange && basis.refused === undefined) continue;
    others ??= input.otherTools?.() ?? new Set();
    const found = scanTool(tool, others);
    findings.push(...found);
    const reasons: MCPHeldTool["reasons"] = [];
    if (!isApproved && poisoning === "hold" && found.some((finding) => finding.strength === "hold")) {
      reasons.push("poisoned");
    }
    const drift = !basis.drift
      ? undefined
      : basis.refused !== undefined
        ? "unverified"
        : !record
          ? undefined
          : serverChange
            ? "server-changed"
            : isApproved
              ? undefined
              : tool.name in approved
                ? "changed"
                : "new";
    if (drift && toolChanges !== "allow") reasons.push(drift);
    if (reasons.length > 0) {
      held.push({
        name: tool.name,
        reasons,
        findings: found,
        kept: record?.declined?.[tool.name] === digest,
        definition: tool,
        digest,
      });
    } else if (basis.drift) {
      toRecord.push(tool);
    }
  }
  const content = scanServerText({
    prompts: input.prompts ?? [],
    resources: input.resources ?? [],
    resourceTemplates: input.resourceTemplates ?? [],
    instructions: input.instructions,
  });
  findings.push(...content);
  const firstSight = basis.drift && !record && basis.refused === undefined;
  return {
    held,
    record: toRecord.length > 0 || firstSight ? toRecord : undefined,
    findings,
    withholdInstructions:
      poisoning === "hold" &&
      content.some((finding) => finding.subject === "instructions" && finding.strength === "hold"),
    serverChange,
  };
}
