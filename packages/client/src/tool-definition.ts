import { type MCPToolDefinition, toolMetaOf } from "@mcp-rt/config";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isOptionalString = (value: unknown): value is string | undefined =>
  value === undefined || typeof value === "string";

/**
 * The quick path of normalising a listed tool: the same rules as
 * `MCPToolDefinitionSchema` (unknown fields dropped, `_meta` but for its `ui.visibility`), checked by hand: most
 * tools pass, and zod is slow to build results. Returns `undefined` when the
 * tool breaks a rule; zod then says which.
 */
export function toToolDefinition(tool: unknown): MCPToolDefinition | undefined {
  if (!isPlainObject(tool)) return undefined;
  const { name, title, description, inputSchema, outputSchema, annotations, _meta } = tool;
  if (typeof name !== "string" || name.length === 0) return undefined;
  if (!isOptionalString(title) || !isOptionalString(description) || !isPlainObject(inputSchema)) {
    return undefined;
  }
  if (outputSchema !== undefined && !isPlainObject(outputSchema)) return undefined;
  if (annotations !== undefined && !isPlainObject(annotations)) return undefined;
  const definition: MCPToolDefinition = { name, inputSchema: { ...inputSchema } };
  if (title !== undefined) definition.title = title;
  if (description !== undefined) definition.description = description;
  if (outputSchema !== undefined) definition.outputSchema = { ...outputSchema };
  if (annotations !== undefined) definition.annotations = { ...annotations };
  // Of `_meta`, only the MCP Apps visibility: whether the model may see the tool.
  const meta = toolMetaOf(_meta);
  if (meta !== undefined) definition._meta = meta;
  return definition;
}
