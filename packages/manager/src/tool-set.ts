import type { MCPToolDefinition, SourceMeta } from "@mcp-rt/config";
import { DeferredMCPTool } from "./deferred-mcp-tool.js";
import { MCPTool, type MCPToolHost } from "./mcp-tool.js";
import { createMCPToolNames } from "./tool-name.js";

/** One server's exposed tools, live or from the cache. */
export interface ToolSlice {
  server: string;
  /** Already filtered by `includeTools` / `excludeTools`. */
  definitions: readonly MCPToolDefinition[];
  /** True while they come from the cache. */
  deferred: boolean;
  source?: SourceMeta;
}

/** The manager's tool view: the tools, and which server and tool each exposed name stands for. */
export interface ToolSet {
  tools: MCPTool[];
  /** Exposed name → (server, original tool name); never derived by parsing a name. */
  index: Map<string, { server: string; tool: string }>;
}

const keyOf = (server: string, tool: string): string => `${server}\u0000${tool}`;

/**
 * Builds the tool view from every server's slice, naming the whole set at once
 * (§6). A tool of `previous` whose name, definition and kind are unchanged is
 * kept as the same object, so a registry that tracks tools by identity only
 * sees real changes.
 */
export function buildToolSet(
  slices: readonly ToolSlice[],
  previous: readonly MCPTool[],
  host: MCPToolHost,
): ToolSet {
  const before = new Map(previous.map((tool) => [keyOf(tool.serverName, tool.definition.name), tool]));
  const entries = slices.flatMap((slice) => slice.definitions.map((definition) => ({ slice, definition })));
  const names = createMCPToolNames(
    entries.map(({ slice, definition }) => ({ server: slice.server, tool: definition.name })),
  );
  const tools: MCPTool[] = [];
  const index = new Map<string, { server: string; tool: string }>();
  entries.forEach(({ slice, definition }, i) => {
    const name = names[i]!;
    const existing = before.get(keyOf(slice.server, definition.name));
    const unchanged =
      existing !== undefined &&
      existing.name === name &&
      existing.definition === definition &&
      existing instanceof DeferredMCPTool === slice.deferred;
    if (unchanged) {
      tools.push(existing);
    } else {
      const options = {
        host,
        serverName: slice.server,
        definition,
        name,
        ...(slice.source ? { source: slice.source } : {}),
      };
      tools.push(slice.deferred ? new DeferredMCPTool(options) : new MCPTool(options));
    }
    index.set(name, { server: slice.server, tool: definition.name });
  });
  return { tools, index };
}
