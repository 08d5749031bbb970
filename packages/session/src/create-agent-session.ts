import { homedir } from "node:os";
import { pathToFileURL } from "node:url";
import { mcpRtPath } from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
import {
  createFileStore,
  createTrustStore,
  type DiscoverFunction,
  defaultCacheDir,
  type LoadConfigsOptions,
  type LoadConfigsResult,
  type Logger,
  loadAllMCPConfigs,
  type MCPLoadError,
  type MCPLoadProblem,
  MCPManager,
  type MCPManagerOptions,
  MCPToolApprovals,
  MCPToolCache,
  toLoadErrors,
} from "@mcp-rt/manager";
import { AgentSession } from "./agent-session.js";
import { BUILT_IN_TOOL_NAMES } from "./built-in-tools.js";
import { EXA_REASON, type NativeExa, nativeExaReplacement, reserveExa } from "./exa-rule.js";
import { logLoadProblems, silentLogger } from "./logger.js";
import { heldBackKeys } from "./native-tools.js";
import { checkResultSpill, type ResultSpillOptions } from "./result-spill.js";
import { createToolRegistry, type ToolRegistry } from "./tool-registry.js";
import { checkToolSearchMode, type ToolSearchMode } from "./tool-search.js";

/** A session waits at most this long for servers without a cache entry (ms). */
export const SESSION_MAX_STARTUP_WAIT_MS = 5000;

/** Options of {@link createAgentSession}. */
export interface CreateAgentSessionOptions {
  /** The project folder. */
  cwd: string;
  /** `false` skips MCP entirely: no discovery, no manager. @default true */
  enableMCP?: boolean;
  /**
   * How servers are found (`loadAllMCPConfigs`' options): `enableProjectConfig`,
   * `homeDir`, `env`, `sources`, `resolveInput`, `trust`. The session's
   * default `trust` is the trust store in `<homeDir>/.mcp-rt/trust.json`
   * (project servers start once approved with `/mcp trust`); `"all"` trusts
   * every project server, as the design document does.
   */
  discovery?: LoadConfigsOptions;
  /**
   * How the manager runs the servers: every `MCPManager` option passes
   * through (`cache`, `startupTimeoutMs`, `reconnect`, `healthCheckIntervalMs`,
   * `resultCharLimit`, `authStorage`, `openUrl`…). The session's defaults:
   * `maxStartupWaitMs` 5000, `logger` the session's, `authStorage` the file
   * store `<homeDir>/.mcp-rt/auth.json` (API keys and sign-ins), and `cache`
   * the file store in the session's home, with the cache key in
   * `<homeDir>/.mcp-rt/`, when `discovery.homeDir` or `discovery.env` is set
   * (else the manager's default), and `approvals` the store of approved tool
   * definitions in `<homeDir>/.mcp-rt/tool-approvals/` (`null` turns tool
   * change checks off; `toolChanges` and `poisoning` keep the manager's
   * defaults, `"hold"`).
   */
  manager?: MCPManagerOptions;
  /** Replaces `loadAllMCPConfigs` at start (tests inject one that fails). */
  discover?: DiscoverFunction;
  /**
   * The agent's native Exa integration. When given, Exa MCP servers are left
   * out (`reserveExa`) and this is called with their API keys; the tools it
   * returns are registered and activated. `/mcp reload` calls it again with the
   * keys found then and replaces its tools. Without it, Exa servers connect like any other.
   */
  nativeExa?: NativeExa;
  /** The agent's tool registry. @default createToolRegistry() */
  registry?: ToolRegistry;
  /** Where per-server errors, file problems and late failures go. @default silent */
  logger?: Logger;
  /**
   * `false` leaves `mcpErrors` out of the logger: for a UI that shows them
   * itself, from the result or live from the manager's events (`onManager`).
   * Late failures and warnings still go to the logger. @default true
   */
  logErrors?: boolean;
  /**
   * Called with the session's `MCPManager` as soon as it exists: before
   * discovery and before any server connects, so its events
   * (`server:connecting`, `server:connected`, `server:failed`, `tools:changed`)
   * can be followed from the first one, e.g. for a live line per server. The
   * session owns the manager: `session.dispose()` closes it.
   */
  onManager?: (manager: MCPManager) => void;
  /**
   * Aborting it stops startup (a Ctrl-C while servers start): servers still
   * starting are disconnected and none is started after; the session comes
   * back at once with what was up, to be disposed.
   */
  signal?: AbortSignal;
  /**
   * Called once with what discovery found, before any server connects: the
   * servers about to start, those waiting for approval, disabled, shadowed
   * or held back, and the files' problems (for a view that lists them, or
   * that tells a first start with nothing configured). Not called with
   * `enableMCP: false`.
   */
  onDiscovered?: (discovery: LoadConfigsResult) => void;
  /** Called once with the names of the servers about to connect (for a "connecting…" line). */
  onConnecting?: (names: string[]) => void;
  /** How long the session lets a burst of tool changes settle before it refreshes. @default 50 */
  refreshDebounceMs?: number;
  /**
   * Watch every file discovery reads or would read (user-level and project
   * files of every client, files not created yet, `envFile`s) and apply
   * edits as they happen: 200 ms after the last write, only the servers that
   * changed restart (`session.reload()`'s diff, failed servers left alone). A
   * file caught mid-save or invalid keeps what runs and is reported once
   * (path:line:col); a removed file removes its servers. Watchers close on
   * `dispose()`. @default false
   */
  watch?: boolean;
  /**
   * When the model gets `mcp_tool_search` instead of every MCP tool's schema:
   * `"off"`, `"on"`, or `{ auto: tokens }` (on while the active MCP tools'
   * definitions cost more than that). Servers with `alwaysLoad: true` (or
   * `/mcp pin`) are always sent. @default { auto: 10000 }
   */
  toolSearch?: ToolSearchMode;
  /** How many searched-for tools a conversation keeps loaded (least recently used leave first). @default 20 */
  maxLoadedTools?: number;
  /** Give the model `mcp_list_resources` and `mcp_read_resource` while some server has resources. @default true */
  resourceTools?: boolean;
  /**
   * Long text results: `{ thresholdChars, dir, previewChars }` writes text
   * past `thresholdChars` (or cut by `resultCharLimit`) to a file in a
   * private folder of the session (0700, files 0600; removed at `dispose()`,
   * leftovers of crashed runs swept at the next start); the model gets the
   * head, the tail, the size and `mcp_read_result { id, offset, limit }`.
   * `false` cuts at `resultCharLimit` instead. @default { thresholdChars: 40000 }
   */
  resultSpill?: ResultSpillOptions | false;
}

/** What {@link createAgentSession} returns. */
export interface CreateAgentSessionResult {
  /** The session: its registry holds the MCP tools, live. */
  session: AgentSession;
  /** The manager of the session's servers; absent with `enableMCP: false`. */
  mcpManager?: MCPManager;
  /** File problems, per-server failures, or one discovery failure, as the design document shows them (`{ path, error }`). */
  mcpErrors: MCPLoadError[];
  /** The same problems with their kind and `McpRtError`. */
  mcpProblems: MCPLoadProblem[];
  /** API keys of the Exa servers left out for `nativeExa`. */
  exaApiKeys: string[];
}

/**
 * Starts an agent session's MCP side: discovers the servers of `cwd`,
 * connects them in parallel behind the startup gate, registers and activates
 * their tools in the registry, and keeps them live (late servers and tool
 * changes follow without a reload). Never throws for a broken file or server:
 * those come back in `mcpErrors` and go to the logger. A callback that throws
 * (`onManager`, `onDiscovered`, `onConnecting`) is logged as a warning.
 *
 * @example
 * ```ts
 * const { session, mcpErrors } = await createAgentSession({
 *   cwd: process.cwd(),
 *   logger: console,
 *   onManager: (manager) => manager.on("server:connected", ({ name, ms }) => console.log(`✓ ${name} ${ms} ms`)),
 * });
 * const tools = session.registry.list().filter((t) => session.registry.active().includes(t.name));
 * const mcp = new MCPCommandController(session);
 * console.log((await mcp.handle("/mcp list")).text);
 * await session.dispose();
 * ```
 */
export async function createAgentSession(
  options: CreateAgentSessionOptions,
): Promise<CreateAgentSessionResult> {
  // A bad option fails before any server starts.
  if (options.toolSearch !== undefined) checkToolSearchMode(options.toolSearch);
  if (options.resultSpill !== undefined) checkResultSpill(options.resultSpill);
  const logger = options.logger ?? silentLogger;
  const registry = options.registry ?? createToolRegistry();
  const discovery = sessionDiscovery(options);
  const sessionOptions = {
    cwd: options.cwd,
    registry,
    logger,
    loadOptions: discovery,
    ...(options.refreshDebounceMs === undefined ? {} : { refreshDebounceMs: options.refreshDebounceMs }),
    ...(options.toolSearch === undefined ? {} : { toolSearch: options.toolSearch }),
    ...(options.maxLoadedTools === undefined ? {} : { maxLoadedTools: options.maxLoadedTools }),
    ...(options.resourceTools === undefined ? {} : { resourceTools: options.resourceTools }),
    ...(options.resultSpill === undefined ? {} : { resultSpill: options.resultSpill }),
    // The Exa rule lives here, beside the `reserve` rule it needs (sessionDiscovery).
    ...(options.nativeExa ? { native: nativeExaReplacement(options.nativeExa) } : {}),
  };

  if (options.enableMCP === false) {
    return { session: new AgentSession(sessionOptions), mcpErrors: [], mcpProblems: [], exaApiKeys: [] };
  }

  const { managerOptions, opened } = sessionManagerOptions(options, logger);
  const manager = new MCPManager(options.cwd, managerOptions);
  callBack("onManager", () => options.onManager?.(manager), logger);
  const { signal } = options;
  let stopping: Promise<void> | undefined;
  const stop = (): void => {
    stopping = manager.disconnectAll();
  };
  signal?.addEventListener("abort", stop, { once: true });
  const discover = options.discover ?? loadAllMCPConfigs;
  const result = await manager.discoverAndConnect({
    ...discovery,
    discover: async (cwd, discoverOptions) => {
      const found = await discover(cwd, discoverOptions);
      // Stopped while the files were read: connect nothing (after this, `stop` disconnects).
      const kept = signal?.aborted ? { ...found, configs: {}, sources: {} } : found;
      callBack("onDiscovered", () => options.onDiscovered?.(kept), logger);
      const names = Object.keys(kept.configs);
      if (names.length > 0) callBack("onConnecting", () => options.onConnecting?.(names), logger);
      return kept;
    },
  });
  signal?.removeEventListener("abort", stop);
  // The servers a stop closed are gone (processes reaped) before the session is handed out.
  await stopping;

  if (options.logErrors !== false) logLoadProblems(logger, result.problems);
  const exaApiKeys = heldBackKeys(result.discovery?.filtered ?? [], EXA_REASON);
  const watchFiles = options.watch && !signal?.aborted ? filesOf(result.discovery) : undefined;
  const session = new AgentSession({
    ...sessionOptions,
    mcpManager: manager,
    opened,
    nativeKeys: exaApiKeys,
    ...(watchFiles ? { watchFiles } : {}),
  });
  // From the manager itself: a server may have finished since connect returned.
  session.syncMCPTools();
  return {
    session,
    mcpManager: manager,
    mcpErrors: toLoadErrors(result.problems),
    mcpProblems: result.problems,
    exaApiKeys,
  };
}

/** The files to watch: what discovery read or would read (a replacement discovery may not say: then the files of its servers). */
function filesOf(discovery: LoadConfigsResult | undefined): readonly string[] {
  if (!discovery) return [];
  return discovery.files ?? Object.values(discovery.sources).map((source) => source.path);
}

/** Discovery as the session runs it: the trust store in the session's home unless told otherwise, and the Exa rule with `nativeExa`. */
function sessionDiscovery(options: CreateAgentSessionOptions): LoadConfigsOptions {
  const discovery = options.discovery ?? {};
  const homeDir = discovery.homeDir ?? homedir();
  return {
    ...discovery,
    homeDir,
    ...(options.nativeExa ? { reserve: reserveExa } : {}),
    trust: discovery.trust ?? createTrustStore(mcpRtPath("trust.json", homeDir)),
  };
}

/**
 * The manager's options: the caller's, over the session's defaults; and what
 * the session opened for them (its own cache, its approvals store), which
 * the session closes.
 */
function sessionManagerOptions(
  options: CreateAgentSessionOptions,
  logger: Logger,
): { managerOptions: MCPManagerOptions; opened: Array<{ close(): Promise<void> }> } {
  const given = options.manager ?? {};
  const { homeDir, env } = options.discovery ?? {};
  // Credentials live in the session's home: API keys and sign-ins survive restarts.
  // Given as a path, the store is the manager's to open and close.
  const authStorage = pathToFileURL(mcpRtPath("auth.json", homeDir)).href;
  // A session given its own home or environment keeps its cache, and the cache's key, there, not in the real home.
  const ownCache =
    given.cache === undefined && (homeDir !== undefined || env !== undefined)
      ? new MCPToolCache(createFileStore(defaultCacheDir(env ?? process.env, homeDir)), {
          logger,
          keyFile: mcpRtPath("cache-key", homeDir),
        })
      : undefined;
  // Approved tool definitions live beside the trust store: a changed tool is held until the user approves it.
  const approvals =
    given.approvals === undefined
      ? new MCPToolApprovals({ folder: mcpRtPath("tool-approvals", homeDir) }, { logger })
      : undefined;
  return {
    managerOptions: {
      maxStartupWaitMs: SESSION_MAX_STARTUP_WAIT_MS,
      logger,
      authStorage,
      ...(ownCache ? { cache: ownCache } : {}),
      ...(approvals ? { approvals } : {}),
      ...given,
      // The session's own tools' names are never a server's, whatever the caller's options say.
      reservedToolNames: [...BUILT_IN_TOOL_NAMES, ...(given.reservedToolNames ?? [])],
    },
    opened: [...(ownCache ? [ownCache] : []), ...(approvals ? [approvals] : [])],
  };
}

/** Runs a caller's callback; one that throws is logged, never fatal to startup. */
function callBack(name: string, run: () => void, logger: Logger): void {
  try {
    run();
  } catch (error) {
    logger.warn(`${name} threw: ${errorMessage(error)}`);
  }
}
