import type { MCPServerCommon, MCPToolDefinition, SourceMeta } from "@mcp-rt/config";
import { DeferredMCPTool } from "./deferred-mcp-tool.js";
import { MCPTool, type MCPToolHost } from "./mcp-tool.js";
import { createMCPToolNames } from "./tool-name.js";

/** One server's tools as the catalog reads them. */
export interface ServerSlice {
  readonly name: string;
  /** Its exposed (filtered) tool definitions. */
  readonly definitions: readonly MCPToolDefinition[];
  /** True while they come from the cache. */
  readonly deferred: boolean;
  readonly source: SourceMeta | undefined;
}

/** Which server and original tool an exposed name stands for. */
export interface ToolOwner {
  server: string;
  tool: string;
}

const keyOf = (server: string, tool: string): string => `${server}\u0000${tool}`;

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

/**
 * The tools a manager exposes, built from every server's slice in its table,
 * and the index from each exposed name to its server and original tool (a
 * name is never parsed to find its server).
 */
export class ToolCatalog {
  readonly #servers: { views(): Iterable<ServerSlice> };
  readonly #host: MCPToolHost;
  #tools: MCPTool[] = [];
  #index = new Map<string, ToolOwner>();
  /** A slice changed since the set was last named. */
  #stale = false;

  /**
   * @param servers Every server's slice, in server order.
   * @param host What the tools ask about their server when they are called.
   */
  constructor(servers: { views(): Iterable<ServerSlice> }, host: MCPToolHost) {
    this.#servers = servers;
    this.#host = host;
  }

  /** The exposed tools, in server order. */
  get tools(): readonly MCPTool[] {
    this.#build();
    return this.#tools;
  }

  /** Which server and original tool `exposedName` stands for. */
  owner(exposedName: string): ToolOwner | undefined {
    this.#build();
    const owner = this.#index.get(exposedName);
    return owner ? { ...owner } : undefined;
  }

  /**
   * A server's slice changed: the set is named again when it is next read.
   * Naming takes the whole set (two servers' tools can only be told apart
   * together), so a hundred servers coming up one after another are named
   * by the reads that follow, not a hundred times each.
   */
  invalidate(): void {
    this.#stale = true;
  }

  /**
   * Names the whole set again from every server's slice, if one changed. A
   * tool whose name, definition and kind are unchanged stays the same
   * object, so a registry that tracks tools by identity only sees real
   * changes.
   */
  #build(): void {
    if (!this.#stale) return;
    this.#stale = false;
    const before = new Map(this.#tools.map((tool) => [keyOf(tool.serverName, tool.definition.name), tool]));
    const entries = [...this.#servers.views()].flatMap((record) =>
      record.definitions.map((definition) => ({ record, definition })),
    );
    const names = createMCPToolNames(
      entries.map(({ record, definition }) => ({ server: record.name, tool: definition.name })),
    );
    const tools: MCPTool[] = [];
    const index = new Map<string, ToolOwner>();
    entries.forEach(({ record, definition }, i) => {
      const name = names[i]!;
      const existing = before.get(keyOf(record.name, definition.name));
      const unchanged =
        existing !== undefined &&
        existing.name === name &&
        existing.definition === definition &&
        existing instanceof DeferredMCPTool === record.deferred;
      if (unchanged) {
        tools.push(existing);
      } else {
        const options = {
          host: this.#host,
          serverName: record.name,
          definition,
          name,
          ...(record.source ? { source: record.source } : {}),
        };
        tools.push(record.deferred ? new DeferredMCPTool(options) : new MCPTool(options));
      }
      index.set(name, { server: record.name, tool: definition.name });
    });
    this.#tools = tools;
    this.#index = index;
  }
}
