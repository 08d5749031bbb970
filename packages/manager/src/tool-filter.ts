import type { MCPServerCommon, MCPToolDefinition } from "@mcp-rt/config";

/**
 * The tools of one server that are exposed: only those named in `includeTools`
 * when it is set, minus those named in `excludeTools` (exclude wins). Names are
 * the original tool names. A tool listed twice by the server is kept once (the
 * first), since one server cannot offer two tools of one name.
 */
export function filterServerTools(
  tools: readonly MCPToolDefinition[],
  config: Pick<MCPServerCommon, "includeTools" | "excludeTools">,
): MCPToolDefinition[] {
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
