import { plural } from "@mcp-rt/config/util";
import { type CustomTool, type MCPServerState, McpRtError } from "@mcp-rt/manager";
import { SessionMCPTool } from "./session-mcp-tool.js";
import { type IndexedTool, ToolIndex } from "./tool-index.js";
import { formatTokens, type ToolTokens } from "./tool-tokens.js";

/**
 * When the model gets `mcp_tool_search` instead of every MCP tool's schema:
 * `"off"` never, `"on"` always, `{ auto: n }` while the active MCP tools'
 * definitions cost more than `n` tokens.
 */
export type ToolSearchMode = "off" | "on" | { auto: number };

/** The session's default: search once the MCP tools cost more than 10k tokens. */
export const DEFAULT_TOOL_SEARCH: ToolSearchMode = { auto: 10_000 };

/** One tool `mcp_tool_search` found. */
export interface ToolMatch {
  /** The exposed name, as the model calls it. */
  name: string;
  /** The server's config name (`""` for one of the agent's own tools). */
  server: string;
  /** The tool's title, when it has one. */
  title?: string;
  /** The first sentence of its description. */
  summary: string;
}

/** What a search answers: the matches, and the text the model reads. */
export interface ToolSearchAnswer {
  query: string;
  matches: ToolMatch[];
  /** Exactly what `mcp_tool_search` returns to the model. */
  text: string;
}

/** How many matches a search returns unless told otherwise, and at most. */
export const SEARCH_LIMIT = { default: 5, max: 20 } as const;

/** The first sentence (or line) of a description, at most 100 characters. */
export function toolSummary(description: string): string {
  const first =
    description
      .trim()
      .split(/\n|(?<=\.)\s/)[0]
      ?.trim() ?? "";
  return first.length > 100 ? `${first.slice(0, 99)}…` : first;
}

/** Checks a `toolSearch` option; throws `CONFIG_INVALID` with what to write instead. */
export function checkToolSearchMode(mode: unknown): ToolSearchMode {
  if (mode === "off" || mode === "on") return mode;
  const auto = (mode as { auto?: unknown } | null)?.auto;
  if (typeof mode === "object" && typeof auto === "number" && Number.isFinite(auto) && auto >= 0) {
    return { auto };
  }
  throw new McpRtError(
    "CONFIG_INVALID",
    `toolSearch: must be "off", "on" or { auto: <tokens ≥ 0> }, got ${JSON.stringify(mode)}`,
  );
}

/** What {@link ToolSearch} reads of its session: the tools, what they cost, and the servers' states. */
export interface ToolSearchSource {
  /** The registry's active tools (the agent's own and MCP), in registry order. */
  activeTools(): CustomTool[];
  /** The MCP tools the session registered. */
  mcpTools(): CustomTool[];
  /** What the active MCP tools cost the model. */
  toolTokens(): ToolTokens;
  /** The servers' states now (for `alwaysLoad`); empty without MCP. */
  serverStates(): readonly MCPServerState[];
}

/** Options of {@link ToolSearch}. */
export interface ToolSearchOptions {
  /** The tools searched, and the facts about them the search needs. */
  source: ToolSearchSource;
  /** When search is on. @default { auto: 10000 } */
  mode?: ToolSearchMode;
}

/**
 * The session's tool search: one ranking (BM25 through minisearch, see
 * `ToolIndex`) over the session's active tools, used by `mcp_tool_search`, by
 * `/tools <words>` and by anything else that looks a tool up by words. It is
 * re-indexed whenever the active tools changed, which is how the manager's
 * `tools:changed` (a new server, a `list_changed`) reaches it. It also knows
 * which MCP tools are always loaded: those of servers with `alwaysLoad` in
 * their config, or pinned in this session (`/mcp pin`).
 */
export class ToolSearch {
  /** When search is on (the session's `toolSearch` option). */
  readonly mode: ToolSearchMode;
  readonly #source: ToolSearchSource;
  #index: ToolIndex | undefined;
  /** `/mcp pin` and `unpin` of this session, over the config, until the next reload. */
  readonly #pins = new Map<string, boolean>();

  constructor(options: ToolSearchOptions) {
    this.#source = options.source;
    this.mode = checkToolSearchMode(options.mode ?? DEFAULT_TOOL_SEARCH);
  }

  /** Whether the model gets `mcp_tool_search` now instead of every MCP tool. */
  get active(): boolean {
    if (this.mode === "off" || this.mode === "on") return this.mode === "on";
    return this.#source.toolTokens().total > this.mode.auto;
  }

  /** The best tools for `query` among the session's active tools, best first. */
  search(query: string, limit: number = SEARCH_LIMIT.default): ToolMatch[] {
    return this.#ranked(query, limit).map(({ tool, server, title }) => ({
      name: tool.name,
      server,
      ...(title ? { title } : {}),
      summary: toolSummary(tool.description),
    }));
  }

  /** The active tools that match `query`, best first (all of them for an empty query, in order). */
  rank(query: string, limit: number = Number.POSITIVE_INFINITY): CustomTool[] {
    if (query.trim() === "")
      return this.#current()
        .entries.slice(0, limit)
        .map((entry) => entry.tool);
    return this.#ranked(query, limit).map((hit) => hit.tool);
  }

  /** `search`, with the text `mcp_tool_search` answers the model (what `/tools search` shows). */
  answer(query: string, limit: number = SEARCH_LIMIT.default): ToolSearchAnswer {
    const matches = this.search(query, limit);
    if (matches.length === 0) {
      const servers = [...new Set(this.#source.mcpTools().map((tool) => (tool as SessionMCPTool).server))];
      const known = servers.length > 0 ? ` Servers with tools: ${servers.join(", ")}.` : "";
      return {
        query,
        matches,
        text: `No tool matches "${query}".${known} Try other words, or a server's name.`,
      };
    }
    const lines = matches.map((match) => {
      const where = match.server ? ` (${match.server})` : "";
      const about = [match.title, match.summary].filter(Boolean).join(": ");
      return `- ${match.name}${where}${about ? ` — ${about}` : ""}`;
    });
    const head = `${plural(matches.length, "tool")} for "${query}", loaded: call them by name from now on.`;
    return { query, matches, text: [head, ...lines].join("\n") };
  }

  /**
   * Pins a server (its tools always go to the model) or unpins it, for this
   * session, over what its config says; `/mcp pin` also saves it. The next
   * reload reads the config again and forgets these.
   */
  pin(server: string, pinned = true): void {
    this.#pins.set(server, pinned);
  }

  /** Forgets the session's pins: the config (read again by a reload) decides. */
  clearPins(): void {
    this.#pins.clear();
  }

  /** Names of the servers whose tools the model always gets now (config `alwaysLoad`, then this session's pins). */
  alwaysLoadedServers(): string[] {
    const servers = new Set(
      this.#source
        .serverStates()
        .filter((state) => state.alwaysLoad)
        .map((state) => state.name),
    );
    for (const [server, pinned] of this.#pins) {
      if (pinned) servers.add(server);
      else servers.delete(server);
    }
    return [...servers].sort();
  }

  /** One line about the search for `/mcp list` and `/tools`: whether it is on, and why. */
  describe(): string {
    const { mode } = this;
    if (mode === "off" || mode === "on") return `tool search ${mode}`;
    return `tool search ${this.active ? "on" : "off"} (auto: on above ${formatTokens(mode.auto)} tokens)`;
  }

  #ranked(query: string, limit: number) {
    return this.#current().search(query, Math.max(0, limit));
  }

  /** The index of the active tools now, built again when they changed (by identity). */
  #current(): ToolIndex {
    const tools = this.#source.activeTools();
    const indexed = this.#index?.entries;
    const same = indexed?.length === tools.length && tools.every((tool, i) => indexed[i]!.tool === tool);
    if (!this.#index || !same) this.#index = new ToolIndex(tools.map(indexedTool));
    return this.#index;
  }
}

function indexedTool(tool: CustomTool): IndexedTool {
  return tool instanceof SessionMCPTool
    ? { tool, server: tool.server, title: tool.title }
    : { tool, server: "" };
}
