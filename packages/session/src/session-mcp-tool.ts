import type { CustomTool, MCPTool, ToolResult } from "@mcp-rt/manager";

/** What a {@link SessionMCPTool} does with a result before the agent gets it (the session's `ResultSpill`). */
export interface ResultKeeper {
  keep(result: ToolResult): Promise<ToolResult>;
}

/** Options of {@link SessionMCPTool}. */
export interface SessionMCPToolOptions {
  /** Which server and config the tool came from, e.g. `mcp:github via Cursor`. */
  origin?: string;
  /** Keeps long results in a file instead of cutting them (`resultSpill`). @default none: results as the manager made them */
  results?: ResultKeeper;
}

/**
 * The session's wrapper around one MCP tool from the manager. The session
 * registers wrappers, never the manager's objects, so it can tell exactly which
 * registry entries are its own (by identity) and replace them without touching
 * the agent's other tools. A call keeps running on the tool it started with,
 * whatever refreshes happen meanwhile.
 */
export class SessionMCPTool implements CustomTool {
  /** The manager's tool this wraps. */
  readonly wrapped: CustomTool;
  /** Which server and config it came from, e.g. `mcp:github via Cursor`, for a tool of the manager's. */
  readonly origin: string | undefined;
  /** The wrapped tool's name (`mcp_<server>_<tool>`), unchanged. */
  readonly name: string;
  /** `<server>/<tool>`. */
  readonly label: string;
  /** The tool's description. */
  readonly description: string;
  /** The tool's input JSON schema. */
  readonly parameters: object;
  /** The server's config name. */
  readonly server: string;
  /** The tool's title, when the server gave one. */
  readonly title: string | undefined;
  readonly #results: ResultKeeper | undefined;

  constructor(tool: CustomTool, options: SessionMCPToolOptions = {}) {
    this.wrapped = tool;
    this.origin = options.origin;
    this.#results = options.results;
    this.name = tool.name;
    this.label = tool.label;
    this.description = tool.description;
    this.parameters = tool.parameters;
    // The manager's tools know their server and definition; a tool built by hand has only its label.
    const mcp = tool as Partial<Pick<MCPTool, "serverName" | "definition">>;
    this.server = mcp.serverName ?? tool.label.split("/")[0] ?? "";
    this.title = mcp.definition?.title ?? mcp.definition?.annotations?.title;
  }

  /** Runs the wrapped tool; a long text result comes back spilled (see `ResultSpill`) when the session keeps them. */
  execute(
    toolCallId: string,
    params: unknown,
    signal?: AbortSignal,
    onUpdate?: (partial: ToolResult) => void,
  ): Promise<ToolResult> {
    const result = this.wrapped.execute(toolCallId, params, signal, onUpdate);
    const results = this.#results;
    return results ? result.then((done) => results.keep(done)) : result;
  }
}
