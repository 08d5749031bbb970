import { createHash } from "node:crypto";
import type { MCPToolDefinition } from "@mcp-rt/config";
import { canonicalJson } from "../fingerprint.js";

/**
 * What of a tool definition an approval covers: its name, title, description,
 * input and output schema and annotations, everything the model is told of
 * it. `_meta` is left out (mcp-rt keeps only the MCP Apps visibility, which
 * decides whether the model sees the tool at all, not what it is told).
 */
export function approvedForm(tool: MCPToolDefinition): Record<string, unknown> {
  const form: Record<string, unknown> = { name: tool.name, inputSchema: tool.inputSchema };
  if (tool.title !== undefined) form.title = tool.title;
  if (tool.description !== undefined) form.description = tool.description;
  if (tool.outputSchema !== undefined) form.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) form.annotations = tool.annotations;
  return form;
}

/**
 * The digest an approval keeps of a tool: SHA-256 (base64url) of the
 * canonical JSON (keys sorted at every depth) of its {@link approvedForm}.
 * Equal definitions give equal digests whatever the order of their keys; a
 * change of any word, schema property or annotation gives another.
 *
 * @example toolDefinitionDigest({ name: "echo", inputSchema: { type: "object" } }) // "q1…" (43 characters)
 */
export function toolDefinitionDigest(tool: MCPToolDefinition): string {
  return createHash("sha256")
    .update(canonicalJson(approvedForm(tool)))
    .digest("base64url");
}
