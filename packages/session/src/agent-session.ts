import { errorMessage, TaskGroup } from "@mcp-rt/config/util";
import type {
  CustomTool,
  LoadConfigsOptions,
  LoadConfigsResult,
  Logger,
  MCPManager,
  MCPReloadResult,
} from "@mcp-rt/manager";
import { MCPTool, McpRtError, toolOrigin } from "@mcp-rt/manager";
import { LiveConfig } from "./live-config.js";
import { silentLogger } from "./logger.js";
import { DEFAULT_MAX_LOADED_TOOLS, ModelTools } from "./model-tools.js";
import { type NativeReplacement, NativeTools } from "./native-tools.js";
import { type AttachedLine, attachResources } from "./resource-attachments.js";
import { ResourceTools } from "./resource-tools.js";
import { ResultSpill, type ResultSpillOptions } from "./result-spill.js";
import { SessionMCPTool } from "./session-mcp-tool.js";
import { createToolRegistry, type ToolRegistry } from "./tool-registry.js";
import { heldNotice } from "./tool-review-text.js";
import { DEFAULT_TOOL_SEARCH, ToolSearch, type ToolSearchMode } from "./tool-search.js";
import { sumToolTokens, type ToolTokens } from "./tool-tokens.js";

/** Options of {@link AgentSession}. `createAgentSession` fills them for you. */
export interface AgentSessionOptions {
  /** The project folder. @default process.cwd() */
  cwd?: string;
  /** The agent's tool registry. @default createToolRegistry() */
  registry?: ToolRegistry;
  /** The manager whose tools this session follows; without one the session has no MCP. */
  mcpManager?: MCPManager;
  /** The discovery options used at start (its `reserve` rule included), reused by `reload()` and `/mcp`. */
  loadOptions?: LoadConfigsOptions;
  /** Where warnings go (tool name conflicts, failed follow-up refreshes). @default silent */
  logger?: Logger;
  /** How long the session waits for a burst of `tools:changed` events to end before refreshing. @default 50 */
  refreshDebounceMs?: number;
  /**
   * The agent's tools that stand in for servers the `reserve` rule of
   * `loadOptions` holds back (`createAgentSession`'s `nativeExa` is one):
   * made with `nativeKeys` now, and again with the keys each reload finds.
   */
  native?: NativeReplacement;
  /** The keys of the servers discovery held back at start for `native`. @default [] */
  nativeKeys?: string[];
  /**
   * Watch these files (what discovery read or would read, `files` of its
   * result) and apply their edits as they happen, as `reload()` does, but
   * without retrying failed servers. @default none: no watching
   */
  watchFiles?: readonly string[];
  /** How long edits must be quiet before a watched change is applied (ms). @default 200 */
  watchDebounceMs?: number;
  /**
   * When the model gets `mcp_tool_search` instead of every MCP tool's schema
   * (see {@link ModelTools}): `"off"`, `"on"`, or `{ auto: tokens }`, on while
   * the active MCP tools cost more than that. @default { auto: 10000 }
   */
  toolSearch?: ToolSearchMode;
  /** How many searched-for tools a conversation keeps loaded (least recently used leave first). @default 20 */
  maxLoadedTools?: number;
  /**
   * Give the model `mcp_list_resources` and `mcp_read_resource` while some
   * server has resources (see {@link ResourceTools}). @default true
   */
  resourceTools?: boolean;
  /**
   * Keep long text results for the model instead of cutting them (see
   * {@link ResultSpill}): past `thresholdChars` (or `resultCharLimit`) the
   * whole text goes to a file in a private folder of this session, removed
   * at `dispose()`, and the model gets its head and tail and
   * `mcp_read_result` to read the rest. `false`: the manager cuts at
   * `resultCharLimit`, as before. @default { thresholdChars: 40000 }
   */
  resultSpill?: ResultSpillOptions | false;
  /**
   * What the session opened for its manager (`createAgentSession`'s cache in
   * the session's own home): closed at `dispose()`, after the manager. One
   * rule across the packages (docs/architecture.md, "Who closes what"):
   * whoever opens a closable closes it.
   */
  opened?: ReadonlyArray<{ close(): Promise<void> | void }>;
}

/** Options of {@link AgentSession.reload}. */
export interface SessionReloadOptions {
  /** Restart every server, changed or not (`/mcp reload --all`). @default false */
  all?: boolean;
}

/**
 * An agent session's side of MCP: it puts the manager's tools into the agent's
 * {@link ToolRegistry}, follows the manager when servers connect late or their
 * tools change, and shuts every server down on `dispose()`.
 */
export class AgentSession {
  /** The agent's tool registry; MCP tools are added and removed here. */
  readonly registry: ToolRegistry;
  /** The manager of this session's MCP servers, when MCP is on. */
  mcpManager?: MCPManager;
  /** The project folder. */
  readonly cwd: string;
  /** The discovery options of this session (trust, project config, home, env…). */
  readonly loadOptions: LoadConfigsOptions;
  /** This session's logger. */
  readonly logger: Logger;
  /** The session's one tool ranking, and whether the model gets `mcp_tool_search` now. */
  readonly toolSearch: ToolSearch;

  // Keyed by the manager's tool object, so an unchanged tool keeps its wrapper.
  #wrappers = new Map<CustomTool, SessionMCPTool>();
  #unsubscribe: Array<() => void> = [];
  #timer: NodeJS.Timeout | undefined;
  #debounceMs: number;
  #disposed: Promise<void> | undefined;
  /** Reloads under way: `dispose()` lets them finish before it closes the manager, so none starts a server after. */
  readonly #tasks = new TaskGroup();
  #native: NativeTools | undefined;
  #live: LiveConfig | undefined;
  readonly #maxLoadedTools: number;
  readonly #resourceToolsOn: boolean;
  #resourceTools: ResourceTools | undefined;
  readonly #spillOptions: ResultSpillOptions | false;
  readonly #opened: ReadonlyArray<{ close(): Promise<void> | void }>;
  #spill: ResultSpill | undefined;

  constructor(options: AgentSessionOptions = {}) {
    this.registry = options.registry ?? createToolRegistry();
    this.cwd = options.cwd ?? process.cwd();
    this.loadOptions = { ...options.loadOptions };
    this.logger = options.logger ?? silentLogger;
    this.#debounceMs = options.refreshDebounceMs ?? 50;
    this.toolSearch = new ToolSearch({
      source: {
        activeTools: () => this.activeTools(),
        mcpTools: () => this.mcpTools(),
        toolTokens: () => this.toolTokens(),
        serverStates: () => this.mcpManager?.getServerStates() ?? [],
      },
      mode: options.toolSearch ?? DEFAULT_TOOL_SEARCH,
    });
    this.#maxLoadedTools = options.maxLoadedTools ?? DEFAULT_MAX_LOADED_TOOLS;
    this.#resourceToolsOn = options.resourceTools ?? true;
    this.#spillOptions = options.resultSpill ?? {};
    this.#opened = options.opened ?? [];
    if (options.native) {
      this.#native = new NativeTools({
        registry: this.registry,
        replacement: options.native,
        logger: this.logger,
      });
      this.#native.apply(options.nativeKeys ?? []);
    }
    if (options.mcpManager) this.#follow(options.mcpManager);
    if (options.mcpManager && options.watchFiles) {
      this.#live = new LiveConfig({
        reload: () => this.#track(this.#reload({ all: false, retryFailed: false })),
        logger: this.logger,
        ...(options.watchDebounceMs === undefined ? {} : { debounceMs: options.watchDebounceMs }),
      });
      this.#live.follow(options.watchFiles);
    }
  }

  /** The folders watched for config changes now; empty when the session does not watch. */
  get watchedFolders(): string[] {
    return this.#live?.folders ?? [];
  }

  /** The keys the native tools were made with (empty without `native`). */
  get nativeKeys(): string[] {
    return this.#native?.apiKeys ?? [];
  }

  /**
   * Hands the keys of the servers a discovery held back to the native tools,
   * which replace themselves; a no-op when the keys did not change or the
   * session has no `native`. The `/mcp` commands that start servers call it.
   */
  applyHeldBack(filtered: LoadConfigsResult["filtered"]): void {
    this.#native?.follow(filtered);
  }

  /** The native tools that stand in for held-back servers (`native`), when the session has them. */
  get native(): NativeReplacement | undefined {
    return this.#native?.replacement;
  }

  /** Whether `dispose()` has been called. */
  get disposed(): boolean {
    return this.#disposed !== undefined;
  }

  /**
   * The servers' own instructions (from `initialize`), each labelled with
   * its server, for the agent's system prompt; `""` when none sent any.
   * Each is cut at 2048 characters (with a note); a deferred server's come
   * from the cache.
   */
  instructions(): string {
    const states = this.mcpManager?.getServerStates() ?? [];
    return states
      .filter((state) => state.instructions !== undefined)
      .map(
        (state) =>
          `Instructions from MCP server "${state.name}" (the server's own words about its tools):\n${state.instructions}`,
      )
      .join("\n\n");
  }

  /**
   * Reads the resources a prompt line names as `@<server>:<uri>` and appends
   * them to it, each in an `<attachment>` block: text inline, binary content
   * as a note with its size and type, a failure as `MCP error: …`. A line
   * without such words comes back as it is.
   */
  attachResources(line: string, options: { signal?: AbortSignal } = {}): Promise<AttachedLine> {
    const manager = this.mcpManager;
    if (!manager || this.disposed) return Promise.resolve({ text: line, attachments: [] });
    return attachResources({ manager, line, signal: options.signal });
  }

  /** Where this session keeps long results (`resultSpill`); absent without MCP or with `resultSpill: false`. */
  get resultSpill(): ResultSpill | undefined {
    return this.#spill;
  }

  /** The MCP tools this session registered, in order. */
  mcpTools(): CustomTool[] {
    return [...this.#wrappers.values()];
  }

  /** The registry's active tools (the agent's own and MCP), in registry order. */
  activeTools(): CustomTool[] {
    const active = new Set(this.registry.active());
    return this.registry.list().filter((tool) => active.has(tool.name));
  }

  /**
   * What the active MCP tools cost the model: tokens of their definitions as
   * sent (`modelToolDefinition`, o200k tokenizer), in all and per server.
   * Counts are cached per definition, so calling it often is cheap.
   */
  toolTokens(): ToolTokens {
    const mcp = new Set<CustomTool>(this.#wrappers.values());
    const tools = this.activeTools().filter((tool) => mcp.has(tool));
    return sumToolTokens(tools, (tool) => (tool as SessionMCPTool).server);
  }

  /**
   * The tools of a new conversation with a model: every active tool while
   * tool search is off, the always-loaded ones, the loaded ones and
   * `mcp_tool_search` while it is on. Make one per conversation.
   */
  modelTools(): ModelTools {
    return new ModelTools({
      activeTools: () => this.activeTools(),
      toolSearch: this.toolSearch,
      maxLoaded: this.#maxLoadedTools,
    });
  }

  /**
   * Replaces the MCP tools in the registry: every MCP tool this session
   * registered before is removed (by identity, never by name prefix), the new
   * ones are wrapped and added, the agent's other tools stay registered and keep
   * their active state, and every MCP tool is active. A call already running
   * finishes on the tool it started with. The manager's tools (`getTools()`,
   * a load result's `tools`) say where they came from (`origin`).
   *
   * A tool whose name is taken by one of the agent's own tools is skipped with
   * a warning: the agent's tool wins.
   */
  refreshMCPTools(tools: readonly CustomTool[]): void {
    const previous = this.#wrappers;
    const keep = new Set(tools);
    for (const [tool, wrapper] of previous) {
      if (!keep.has(tool)) this.registry.remove(wrapper);
    }
    const next = new Map<CustomTool, SessionMCPTool>();
    for (const tool of tools) {
      if (next.has(tool)) continue;
      const kept = previous.get(tool);
      if (kept) {
        next.set(tool, kept);
        continue;
      }
      const wrapper = new SessionMCPTool(tool, {
        ...(tool instanceof MCPTool ? { origin: toolOrigin(tool) } : {}),
        ...(this.#spill ? { results: this.#spill } : {}),
      });
      try {
        this.registry.add(wrapper);
        next.set(tool, wrapper);
      } catch (error) {
        this.logger.warn(`MCP tool ${tool.name} (${tool.label}) skipped: ${errorMessage(error)}`);
      }
    }
    this.#wrappers = next;
    const mcpNames = [...next.values()].map((wrapper) => wrapper.name);
    const mcpNameSet = new Set(mcpNames);
    const otherActive = this.registry.active().filter((name) => !mcpNameSet.has(name));
    this.registry.setActive([...otherActive, ...mcpNames]);
  }

  /**
   * `/mcp reload`: discovers again with this session's own options and
   * restarts only what changed (the manager's `discoverAndReload`): new
   * servers start, removed ones stop, changed ones restart, the others keep
   * running; servers that failed are tried again too. A file caught mid-save
   * keeps its servers as they are. Then the tools are refreshed, and the
   * native ones when the keys of the held-back servers changed. `all: true`
   * restarts every server and makes the native tools again (`/mcp reload --all`).
   */
  reload(options: SessionReloadOptions = {}): Promise<MCPReloadResult> {
    return this.#track(this.#reload({ all: options.all ?? false, retryFailed: true }));
  }

  /**
   * Refreshes from the manager's current tools right away (and cancels a
   * pending debounced refresh). The session calls it itself when the manager
   * reports `tools:changed`; call it after changing the manager directly.
   */
  syncMCPTools(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const manager = this.mcpManager;
    if (!manager || this.disposed) return;
    this.refreshMCPTools(manager.getTools());
  }

  /**
   * Removes this session's MCP tools (and native tools), lets a reload
   * under way finish, then closes the manager (every server, and the cache it
   * made) and removes the folder of long results. Idempotent.
   */
  dispose(): Promise<void> {
    this.#disposed ??= this.#dispose();
    return this.#disposed;
  }

  /** Same as {@link AgentSession.dispose}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  async #dispose(): Promise<void> {
    this.#live?.close();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const off of this.#unsubscribe) off();
    this.#unsubscribe = [];
    for (const wrapper of this.#wrappers.values()) this.registry.remove(wrapper);
    this.#wrappers = new Map();
    this.#resourceTools?.remove();
    this.#native?.remove();
    await this.#tasks.idle();
    await this.mcpManager?.close();
    await Promise.allSettled(this.#opened.map((closable) => closable.close()));
    await this.#spill?.close();
  }

  async #reload(options: { all: boolean; retryFailed: boolean }): Promise<MCPReloadResult> {
    const manager = this.#requireManager();
    const result = await manager.discoverAndReload({ ...this.loadOptions, ...options });
    // The configs just read say what is pinned now.
    this.toolSearch.clearPins();
    this.#native?.follow(result.discovery?.filtered ?? [], { force: options.all });
    this.syncMCPTools();
    if (result.discovery?.files) this.#live?.follow(result.discovery.files);
    return result;
  }

  /** Work `dispose()` lets finish before it closes the manager. */
  #track<T>(work: Promise<T>): Promise<T> {
    this.#tasks.add(work);
    return work;
  }

  #follow(manager: MCPManager): void {
    this.mcpManager = manager;
    if (this.#spillOptions !== false) {
      const spill = new ResultSpill({ ...this.#spillOptions, registry: this.registry, logger: this.logger });
      this.#spill = spill;
      // What crashed runs left is swept now, in the background (dispose waits for it).
      this.#track(spill.sweep());
    }
    const schedule = (): void => this.#schedule();
    this.#unsubscribe.push(
      manager.on("tools:changed", schedule),
      manager.on("server:disconnected", schedule),
      // Held tools never reach the registry: the user is told which, why, and how to review them.
      manager.on("tools:held", (event) => {
        if (!this.disposed) this.logger.warn(heldNotice(event));
      }),
    );
    if (this.#resourceToolsOn) {
      const tools = new ResourceTools({
        registry: this.registry,
        manager,
        logger: this.logger,
        ...(this.#spill ? { results: this.#spill } : {}),
      });
      this.#resourceTools = tools;
      tools.sync();
      this.#unsubscribe.push(
        manager.on("resources:changed", () => {
          if (!this.disposed) tools.sync();
        }),
      );
    }
  }

  #schedule(): void {
    if (this.disposed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.syncMCPTools();
      } catch (error) {
        this.logger.warn(`MCP tool refresh failed: ${errorMessage(error)}`);
      }
    }, this.#debounceMs);
    this.#timer.unref?.();
  }

  #requireManager(): MCPManager {
    if (!this.mcpManager) {
      throw new McpRtError(
        "NOT_CONNECTED",
        "MCP is off in this session (enableMCP: false); start one with MCP on.",
      );
    }
    if (this.disposed) throw new McpRtError("NOT_CONNECTED", "This session was disposed; start a new one.");
    return this.mcpManager;
  }
}
