import type { CustomTool, ToolResult } from "@mcp-rt/manager";
import { SessionMCPTool } from "./session-mcp-tool.js";
import { SEARCH_LIMIT, type ToolSearch } from "./tool-search.js";

/** The exposed name of the search tool the model gets while tool search is on. */
export const TOOL_SEARCH_NAME = "mcp_tool_search";

/** How many searched-for tools a conversation keeps loaded unless told otherwise. */
export const DEFAULT_MAX_LOADED_TOOLS = 20;

const PARAMETERS = {
  type: "object",
  properties: {
    query: {
      type: "string",
      description: "What you want to do, in a few words, or a tool's or server's name.",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: SEARCH_LIMIT.max,
      description: `How many tools to load (default ${SEARCH_LIMIT.default}).`,
    },
  },
  required: ["query"],
  additionalProperties: false,
} as const;

/** Options of {@link ModelTools}. */
export interface ModelToolsOptions {
  /** The session's active tools now (the agent's own and MCP), in registry order. */
  activeTools: () => CustomTool[];
  /** The session's tool search (ranking, pins, whether it is on). */
  toolSearch: ToolSearch;
  /** How many searched-for tools stay loaded. @default 20 */
  maxLoaded?: number;
}

/**
 * The tools of one conversation with a model. While the session's tool
 * search is off (or below its `auto` threshold) that is every active tool.
 * While it is on, the model gets the agent's own tools, the tools of
 * always-loaded servers (`alwaysLoad`, `/mcp pin`), the tools it loaded with
 * `mcp_tool_search`, and `mcp_tool_search` itself. Loaded tools stay for the
 * whole conversation, at most `maxLoaded` of them: the least recently
 * loaded or called one goes first.
 *
 * Ask for {@link ModelTools.visible} before every model request (a search in
 * the previous step changes it), and look tool calls up with
 * {@link ModelTools.find}.
 *
 * @example
 * ```ts
 * const tools = session.modelTools(); // one per conversation
 * for (let step = 0; step < 8; step++) {
 *   const request = { messages, tools: tools.visible().map(modelToolDefinition) };
 *   const calls = await callModel(request);
 *   if (calls.length === 0) break;
 *   for (const call of calls) await tools.find(call.name)?.execute(call.id, call.args);
 * }
 * ```
 */
export class ModelTools {
  /** The search tool of this conversation (`mcp_tool_search`). */
  readonly searchTool: CustomTool;
  /** The session's tool search (ranking, pins, whether it is on). */
  readonly toolSearch: ToolSearch;
  readonly #activeTools: () => CustomTool[];
  readonly #maxLoaded: number;
  /** Exposed names, least recently used first. */
  readonly #loaded = new Set<string>();

  constructor(options: ModelToolsOptions) {
    this.#activeTools = options.activeTools;
    this.toolSearch = options.toolSearch;
    this.#maxLoaded = Math.max(1, options.maxLoaded ?? DEFAULT_MAX_LOADED_TOOLS);
    this.searchTool = this.#createSearchTool();
  }

  /** The tools to send with the next model request, in registry order (`mcp_tool_search` last). */
  visible(): CustomTool[] {
    const active = this.#activeTools();
    if (!this.toolSearch.active) return active;
    const always = alwaysLoaded(this.toolSearch);
    // A tool that happens to be named like the search tool waits until search is off: names must be unique.
    const shown = active.filter(
      (tool) => tool.name !== TOOL_SEARCH_NAME && (this.#loaded.has(tool.name) || always(tool)),
    );
    return [...shown, this.searchTool];
  }

  /**
   * The tool a model's call names: `mcp_tool_search` while search is on, else
   * any active tool (also one not sent: a model may remember a name). Calling
   * an MCP tool keeps it loaded.
   */
  find(name: string): CustomTool | undefined {
    if (name === TOOL_SEARCH_NAME && this.toolSearch.active) return this.searchTool;
    const tool = this.#activeTools().find((candidate) => candidate.name === name);
    if (tool instanceof SessionMCPTool) this.load([tool.name]);
    return tool;
  }

  /** Loads tools by exposed name for the following requests (the most recent last; the oldest over the cap leave). */
  load(names: readonly string[]): void {
    for (const name of names) {
      this.#loaded.delete(name);
      this.#loaded.add(name);
    }
    for (const name of this.#loaded) {
      if (this.#loaded.size <= this.#maxLoaded) break;
      this.#loaded.delete(name);
    }
  }

  /** The loaded tools' names, least recently used first. */
  loaded(): string[] {
    return [...this.#loaded];
  }

  #createSearchTool(): CustomTool {
    const run = async (_callId: string, params: unknown): Promise<ToolResult> => {
      const { query, limit } = (params ?? {}) as { query?: unknown; limit?: unknown };
      const details = { serverName: "mcp-rt", mcpToolName: TOOL_SEARCH_NAME, isError: false };
      if (typeof query !== "string" || query.trim() === "") {
        const text = 'Give "query": what you want to do, in a few words.';
        return {
          content: [{ type: "text", text }],
          isError: true,
          details: { ...details, isError: true, rawContent: [] },
        };
      }
      const wanted = typeof limit === "number" && Number.isInteger(limit) ? limit : SEARCH_LIMIT.default;
      // No more than stay loaded: every tool the answer names can be called.
      const bound = Math.min(Math.max(wanted, 1), SEARCH_LIMIT.max, this.#maxLoaded);
      const answer = this.toolSearch.answer(query.trim(), bound);
      // Best match last: the most recently loaded are the last to leave.
      this.load(answer.matches.map((match) => match.name).reverse());
      return {
        content: [{ type: "text", text: answer.text }],
        details: { ...details, rawContent: answer.matches },
      };
    };
    const search = this.toolSearch;
    const activeTools = this.#activeTools;
    return {
      name: TOOL_SEARCH_NAME,
      label: "mcp-rt/tool_search",
      get description(): string {
        return searchDescription(activeTools(), search);
      },
      parameters: PARAMETERS,
      execute: run,
    };
  }
}

/** True for a tool the model always gets: the agent's own, or one of an always-loaded server. */
function alwaysLoaded(search: ToolSearch): (tool: CustomTool) => boolean {
  const servers = new Set(search.alwaysLoadedServers());
  return (tool) => !(tool instanceof SessionMCPTool) || servers.has(tool.server);
}

/** The search tool's description: what it does, and which servers' tools it reaches. */
function searchDescription(active: readonly CustomTool[], search: ToolSearch): string {
  const always = alwaysLoaded(search);
  const counts = new Map<string, number>();
  for (const tool of active) {
    if (tool instanceof SessionMCPTool && !always(tool)) {
      counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
    }
  }
  const servers = [...counts].map(([server, count]) => `${server} (${count})`).join(", ");
  return (
    "Finds tools of the connected MCP servers and loads them: the tools it returns can be called from your next step on. " +
    "Search whenever no tool you have fits the task. " +
    (servers ? `Tools reachable only through this search, by server: ${servers}.` : "")
  ).trim();
}
