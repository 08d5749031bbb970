import { isPlainObject } from "../util/describe-value.js";
import { z } from "../util/zod.js";

/** MCP tool annotations (hints; never trusted for security decisions). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** A tool as a server lists it, and as the cache keeps it. */
export interface MCPToolDefinition {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | undefined;
  annotations?: ToolAnnotations | undefined;
  /**
   * What mcp-rt keeps of the tool's `_meta`: the MCP Apps `ui.visibility`
   * (`["model", "app"]` when absent). A tool whose visibility lacks `"model"`
   * is for an app's UI only and never given to the model.
   */
  _meta?: { ui: { visibility: string[] } } | undefined;
}

/**
 * The part of a listed tool's `_meta` that {@link MCPToolDefinition} keeps:
 * `{ ui: { visibility } }` when `ui.visibility` is a list of strings, else
 * `undefined` (any other `_meta`, however shaped, is dropped, never refused).
 */
export function toolMetaOf(meta: unknown): MCPToolDefinition["_meta"] {
  const ui = isPlainObject(meta) ? meta.ui : undefined;
  const visibility = isPlainObject(ui) ? ui.visibility : undefined;
  if (!Array.isArray(visibility) || !visibility.every((entry) => typeof entry === "string")) return undefined;
  return { ui: { visibility: [...visibility] } };
}

/** zod schema of {@link MCPToolDefinition}; unknown fields are dropped. */
export const MCPToolDefinitionSchema: z.ZodMiniType<MCPToolDefinition> = z.object({
  name: z.string().check(z.minLength(1)),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.optional(z.record(z.string(), z.unknown())),
  annotations: z.optional(z.looseObject({})) as z.ZodMiniType<ToolAnnotations | undefined>,
  _meta: z.optional(z.pipe(z.unknown(), z.transform(toolMetaOf))),
});
