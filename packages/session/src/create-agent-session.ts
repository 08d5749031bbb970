import { homedir } from "node:os";
import { join } from "node:path";
import {
  type AuthStorage,
  type CapabilitySource,
  connectAndReport,
  createTrustStore,
  type LoadConfigsOptions,
  type LoadConfigsResult,
  type Logger,
  loadAllMCPConfigs,
  type MCPLoadError,
  MCPManager,
  type MCPToolCache,
  type ProjectTrust,
} from "@mcp-rt/manager";
import { AgentSession } from "./agent-session.js";
import { exaApiKeysFrom, reserveExa } from "./exa-rule.js";
import { silentLogger } from "./logger.js";
import type { NativeExa } from "./native-exa.js";
import { openSessionCache } from "./session-cache.js";
import { createToolRegistry, type ToolRegistry } from "./tool-registry.js";

/** A session waits at most this long for servers without a cache entry (ms). */
export const SESSION_MAX_STARTUP_WAIT_MS = 5000;

/** Options of {@link createAgentSession}. */
export interface CreateAgentSessionOptions {
  /** The project folder. */
  cwd: string;
  /** `false` skips MCP entirely: no discovery, no manager. @default true */
  enableMCP?: boolean;
  /** `false` does not read project-level config files at all. @default true */
  enableProjectConfig?: boolean;
  /**
   * The tool-definition cache: an `MCPToolCache`, or a store URL (`memory:`,
   * `file:/path`, `redis://host:port`). @default the file store (`$XDG_CACHE_HOME/mcp-rt` or `~/.cache/mcp-rt`)
   */
  cacheStorage?: MCPToolCache | string;
  /** Secrets for `auth: { type: "apikey" }` servers (§9). */
  authStorage?: AuthStorage;
  /**
   * Project trust (§8): project-level servers start only once approved
   * (`/mcp trust`). `false` trusts every project server, as the design document does.
   * @default createTrustStore() at `<homeDir>/.mcp-rt/trust.json`
   */
  trust?: ProjectTrust | false;
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
   * session owns the manager: `session.dispose()` shuts it down.
   */
  onManager?: (manager: MCPManager) => void;
  /**
   * Aborting it stops startup (a Ctrl-C while servers start): servers still
   * starting are disconnected and none is started after; the session comes
   * back at once with what was up, to be disposed.
   */
  signal?: AbortSignal;
  /** Called once with the names of the servers about to connect (for a "connecting…" line). */
  onConnecting?: (names: string[]) => void;
  /**
   * How long startup waits for servers that have no cache entry; after it
   * their tools follow live. @default 5000
   */
  maxStartupWaitMs?: number;
  /** The startup gate. @default 250 */
  startupTimeoutMs?: number;
  /** The user's home (config files, trust store, default cache). @default os.homedir() */
  homeDir?: string;
  /** The environment used for `${VAR}` expansion. @default process.env */
  env?: Record<string, string | undefined>;
  /** The config sources. @default the built-in list (SPEC §7) */
  sources?: CapabilitySource[];
  /** Replaces `loadAllMCPConfigs` at start (tests inject one that fails). */
  discover?: (cwd: string, options: LoadConfigsOptions) => Promise<LoadConfigsResult>;
  /** How long the session lets a burst of tool changes settle before it refreshes. @default 50 */
  refreshDebounceMs?: number;
}

/** What {@link createAgentSession} returns. */
export interface CreateAgentSessionResult {
  /** The session: its registry holds the MCP tools, live. */
  session: AgentSession;
  /** The manager of the session's servers; absent with `enableMCP: false`. */
  mcpManager?: MCPManager;
  /** File problems, per-server failures, or one discovery failure (path `.mcp.json`). */
  mcpErrors: MCPLoadError[];
  /** API keys of the Exa servers left out for `nativeExa`. */
  exaApiKeys: string[];
}

/**
 * Starts an agent session's MCP side (§3.1): discovers the servers of `cwd`,
 * connects them in parallel behind the startup gate, registers and activates
 * their tools in the registry, and keeps them live (late servers and tool
 * changes follow without a reload). Never throws for a broken file or server:
 * those come back in `mcpErrors` and go to the logger. A callback that throws
 * (`onManager`, `onConnecting`) is logged as a warning.
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
  const logger = options.logger ?? silentLogger;
  const registry = options.registry ?? createToolRegistry();
  const homeDir = options.homeDir ?? homedir();
  const trust =
    options.trust === false
      ? undefined
      : (options.trust ?? createTrustStore(join(homeDir, ".mcp-rt", "trust.json")));
  const loadOptions: LoadConfigsOptions = {
    ...(options.nativeExa ? { reserve: reserveExa } : {}),
    homeDir,
    ...(options.enableProjectConfig === undefined
      ? {}
      : { enableProjectConfig: options.enableProjectConfig }),
    ...(options.env ? { env: options.env } : {}),
    ...(options.sources ? { sources: options.sources } : {}),
    ...(trust ? { trust } : {}),
  };
  const sessionOptions = {
    cwd: options.cwd,
    registry,
    logger,
    loadOptions,
    ...(options.authStorage ? { authStorage: options.authStorage } : {}),
    ...(options.refreshDebounceMs === undefined ? {} : { refreshDebounceMs: options.refreshDebounceMs }),
    ...(options.nativeExa ? { nativeExa: options.nativeExa } : {}),
  };

  if (options.enableMCP === false) {
    return { session: new AgentSession(sessionOptions), mcpErrors: [], exaApiKeys: [] };
  }

  const discover = options.discover ?? loadAllMCPConfigs;
  const cache = await openSessionCache({
    cacheStorage: options.cacheStorage,
    homeDir: options.homeDir,
    env: options.env,
    logger,
  });
  const manager = new MCPManager(options.cwd, {
    ...(cache.cache === undefined ? {} : { cache: cache.cache }),
    logger,
    maxStartupWaitMs: options.maxStartupWaitMs ?? SESSION_MAX_STARTUP_WAIT_MS,
    ...(options.startupTimeoutMs === undefined ? {} : { startupTimeoutMs: options.startupTimeoutMs }),
    ...(options.authStorage ? { authStorage: options.authStorage } : {}),
  });
  callBack("onManager", () => options.onManager?.(manager), logger);
  const { signal } = options;
  let stopping: Promise<void> | undefined;
  const stop = (): void => {
    stopping = manager.disconnectAll();
  };
  signal?.addEventListener("abort", stop, { once: true });
  const loaded = await connectAndReport(manager, {
    ...loadOptions,
    discover: async (cwd, discoverOptions) => {
      const found = await discover(cwd, discoverOptions);
      // Stopped while the files were read: connect nothing (after this, `stop` disconnects).
      const result = signal?.aborted ? { ...found, configs: {}, sources: {} } : found;
      const names = Object.keys(result.configs);
      if (names.length > 0) callBack("onConnecting", () => options.onConnecting?.(names), logger);
      return result;
    },
  });

  signal?.removeEventListener("abort", stop);
  // The servers a stop closed are gone (processes reaped) before the session is handed out.
  await stopping;
  const mcpErrors = [...cache.errors, ...loaded.errors];
  if (options.logErrors !== false) {
    for (const { path, error } of mcpErrors) {
      if (path.startsWith("mcp:") || path === ".mcp.json") logger.error(`MCP ${path}: ${error}`);
      else logger.warn(`MCP config ${path}: ${error}`);
    }
  }
  const exaApiKeys = exaApiKeysFrom(loaded.result?.discovery?.filtered ?? []);
  const session = new AgentSession({
    ...sessionOptions,
    mcpManager: manager,
    exaApiKeys,
    ...(cache.owned ? { ownedCache: cache.owned } : {}),
  });
  // From the manager itself: a server may have finished since connect returned.
  session.syncMCPTools();
  return { session, mcpManager: manager, mcpErrors, exaApiKeys };
}

/** Runs a caller's callback; one that throws is logged, never fatal to startup. */
function callBack(name: string, run: () => void, logger: Logger): void {
  try {
    run();
  } catch (error) {
    logger.warn(`${name} threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}
