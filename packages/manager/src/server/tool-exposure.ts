import type { MCPServerCommon, MCPToolDefinition } from "@mcp-rt/config";

type ToolConfig = Pick<MCPServerCommon, "includeTools" | "excludeTools">;

/**
 * Whether the model may be given `tool`: MCP Apps' `_meta.ui.visibility`
 * (`["model", "app"]` when absent) names `"model"`. A tool without it is for
 * an app's UI only, and mcp-rt hosts no UI.
 */
export function isModelVisible(tool: MCPToolDefinition): boolean {
  const visibility = tool._meta?.ui.visibility;
  return visibility === undefined || visibility.includes("model");
}

/** The tools the config lets through: `includeTools`, minus `excludeTools`, each name once (the first). */
function configured(tools: readonly MCPToolDefinition[], config: ToolConfig): MCPToolDefinition[] {
  const include = config.includeTools ? new Set(config.includeTools) : undefined;
  const exclude = new Set(config.excludeTools ?? []);
  const seen = new Set<string>();
  return tools.filter((tool) => {
    if (seen.has(tool.name)) return false;
    seen.add(tool.name);
    if (exclude.has(tool.name)) return false;
    return include === undefined || include.has(tool.name);
  });
}

/**
 * The tools of one server that are exposed: only those named in `includeTools`
 * when it is set, minus those named in `excludeTools` (exclude wins), minus
 * the app-only ones (see {@link isModelVisible}). Names are the original tool
 * names. A tool listed twice by the server is kept once (the first), since one
 * server cannot offer two tools of one name.
 */
export function filterServerTools(
  tools: readonly MCPToolDefinition[],
  config: ToolConfig,
): MCPToolDefinition[] {
  return configured(tools, config).filter(isModelVisible);
}

/** The names of the tools the config lets through that are for an app's UI only: never exposed. */
export function appOnlyToolNames(tools: readonly MCPToolDefinition[], config: ToolConfig): string[] {
  return configured(tools, config)
    .filter((tool) => !isModelVisible(tool))
    .map((tool) => tool.name);
}
