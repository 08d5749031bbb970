import { type MCPToolDefinition, MCPToolDefinitionSchema } from "@mcp-rt/config";
import { lazy, z } from "@mcp-rt/config/util";
import { toolDefinitionDigest } from "./tool-digest.js";

/**
 * Which server an approval is for, as the user controls it: the config's
 * name, the file it is defined in and that file's level. Never the server's
 * own `serverInfo`, so a server cannot rename itself out of its approvals.
 */
export interface ToolApprovalIdentity {
  /** The server's name in its config. */
  server: string;
  /** The config file it is defined in (`""` when the caller gave no source). */
  source: string;
  /** That file's level. */
  level: "user" | "project";
}

/** What was approved for one server: what it ran and called itself, and a digest per tool. */
export interface ToolApprovalRecord {
  /**
   * What the server ran when it was approved: its command and arguments (or
   * its URL) without version specifiers and secrets, so an upgrade of
   * `pkg@1.2` to `pkg@1.3` runs the same thing and anything else does not.
   */
  target: string;
  /** The `serverInfo.name` it gave then, when it gave one. */
  serverInfoName?: string | undefined;
  /** The digest (`toolDefinitionDigest`) of each approved tool, by name. */
  tools: Record<string, string>;
  /** Digests the user chose to keep holding (`/mcp review … hold`), by tool name: held without asking again. */
  declined?: Record<string, string> | undefined;
  /** When it was last written (ISO 8601). */
  approvedAt: string;
}

/** What an approval keeps to show a diff later: the approved definition of each tool, by name. */
export type ApprovedDefinitions = Record<string, MCPToolDefinition>;

const recordSchema = lazy(() =>
  z.object({
    target: z.string(),
    serverInfoName: z.optional(z.string()),
    tools: z.record(z.string(), z.string()),
    declined: z.optional(z.record(z.string(), z.string())),
    approvedAt: z.string(),
  }),
);

const definitionsSchema = lazy(() => z.record(z.string(), MCPToolDefinitionSchema));

/** `value` as a {@link ToolApprovalRecord} (unknown fields dropped), or `undefined` when it is not one. */
export function parseApprovalRecord(value: unknown): ToolApprovalRecord | undefined {
  const parsed = recordSchema().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** `value` as {@link ApprovedDefinitions}, or `undefined` when it is not. */
export function parseApprovedDefinitions(value: unknown): ApprovedDefinitions | undefined {
  const parsed = definitionsSchema().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** What an approval records: see `MCPToolApprovals.approve`. */
export interface ToolApprovalChange {
  /** What the server runs now (see {@link ToolApprovalRecord.target}). */
  target: string;
  /** Its `serverInfo.name` now, when known. */
  serverInfoName?: string | undefined;
  /** The definitions approved: their digests replace those of the same names; the others stay. */
  tools: readonly MCPToolDefinition[];
}

/**
 * `record` with `change` approved: the digests of its tools replace those of
 * the same names (and leave the held-on-purpose list), the others stay (a
 * removed tool keeps its approval); target and name become the current ones.
 */
export function withApproved(
  record: ToolApprovalRecord | undefined,
  change: ToolApprovalChange,
  now: Date = new Date(),
): ToolApprovalRecord {
  const tools = { ...record?.tools };
  const declined = { ...record?.declined };
  for (const tool of change.tools) {
    tools[tool.name] = toolDefinitionDigest(tool);
    delete declined[tool.name];
  }
  const serverInfoName = change.serverInfoName ?? record?.serverInfoName;
  return {
    target: change.target,
    ...(serverInfoName === undefined ? {} : { serverInfoName }),
    tools,
    ...(Object.keys(declined).length > 0 ? { declined } : {}),
    approvedAt: now.toISOString(),
  };
}

/** `record` with `tools`, as they are now, held on purpose: held again without asking, until they change. */
export function withDeclined(
  record: ToolApprovalRecord,
  tools: readonly MCPToolDefinition[],
): ToolApprovalRecord {
  const declined = { ...record.declined };
  for (const tool of tools) declined[tool.name] = toolDefinitionDigest(tool);
  return { ...record, declined };
}
