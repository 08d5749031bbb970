import type { MCPToolCache } from "@mcp-rt/cache";
import type {
  AuthStorage,
  LoadConfigsOptions,
  LoadConfigsResult,
  Logger,
  McpRtError,
  SourceMeta,
} from "@mcp-rt/config";
import type { CustomTool } from "./custom-tool.js";
import type { ReconnectOptions } from "./reconnect-policy.js";

/** Where a server is, derived from the manager's maps (§3.4). */
export type MCPConnectionStatus = "connected" | "connecting" | "disconnected";

/** A server as a UI shows it. */
export interface MCPServerState {
  /** The config name. */
  name: string;
  /** Where the config came from, when known. */
  source?: SourceMeta;
  /**
   * `failed`: the last attempt failed, or reconnecting gave up (see
   * `lastError`); `reconnecting`: it dropped and the manager is bringing it
   * back (waiting for an attempt, or in one); `disconnected`: it was connected
   * and its transport closed (with `reconnect: false`), or it was never started.
   */
  status: MCPConnectionStatus | "reconnecting" | "failed" | "needs-auth";
  /** While `reconnecting`: the number of the attempt running or scheduled (1, 2, …). */
  reconnectAttempt?: number;
  /** Tools exposed for it now (live or from cache). */
  toolCount: number;
  /** True while its tools come from the cache and the server is not up yet. */
  deferred: boolean;
  /** How long connect + `tools/list` took, once connected. */
  connectedMs?: number;
  /** The last failure: connect, list, or a dropped transport. */
  lastError?: { code: string; message: string; stderrTail?: string };
}

/** Events of an `MCPManager`, by name, with their payloads. */
export interface MCPManagerEvents {
  /** An attempt to connect started (not emitted for automatic reconnects, which emit `server:reconnecting`). */
  "server:connecting": { name: string };
  /** Connected and its tools listed; `ms` is connect + list time. */
  "server:connected": { name: string; ms: number; toolCount: number };
  /** An attempt failed (invalid config, connect, list, auth), or reconnecting gave up (circuit breaker). */
  "server:failed": { name: string; error: McpRtError };
  /** A connected server went away: its transport closed, or it was disconnected on purpose. */
  "server:disconnected": { name: string; reason: string };
  /** A dropped server's next reconnect attempt starts in `delayMs`; `attempt` counts from 1 since it dropped. */
  "server:reconnecting": { name: string; attempt: number; delayMs: number };
  /** The tools of `name` changed: call `getTools()` again. */
  "tools:changed": { name: string };
}

/** What `connectServers` / `discoverAndConnect` return. */
export interface MCPLoadResult {
  /** The tools of the servers of this call: live, or deferred from the cache. */
  tools: CustomTool[];
  /** Server name → what went wrong, for servers of this call that failed. */
  errors: Map<string, string>;
  /** Servers of this call that are connected. */
  connectedServers: string[];
  /** API keys of Exa servers removed by discovery (`filterExa`). */
  exaApiKeys: string[];
  /** The full discovery result (`discoverAndConnect` only): file issues, disabled, shadowed… */
  discovery?: LoadConfigsResult;
}

/** Options of `MCPManager`. */
export interface MCPManagerOptions {
  /**
   * Where tool definitions are cached between runs. `null` turns the cache off.
   * @default an `MCPToolCache` on the default file store (~/.cache/mcp-rt)
   */
  cache?: MCPToolCache | null;
  /** The startup gate: how long `connectServers` waits before it uses the cache. @default 250 */
  startupTimeoutMs?: number;
  /**
   * How long `connectServers` waits for pending servers without a cache entry.
   * After it, such a server stays `connecting` and its tools arrive through
   * `tools:changed`. @default unbounded (each server's own `timeout` still applies)
   */
  maxStartupWaitMs?: number;
  /** Where warnings (late failures, cache errors) go. @default silent */
  logger?: Logger;
  /** Secrets for `auth: { type: "apikey" }` (§9). */
  authStorage?: AuthStorage;
  /** Text characters a tool result may hold before it is cut. @default 100000 */
  resultCharLimit?: number;
  /**
   * Reconnects a server whose connection dropped, with backoff, jitter and a
   * circuit breaker (see {@link ReconnectOptions}); `false` restores the design
   * document's manual model (a dropped server stays `disconnected` until
   * `connectServers` or `/mcp reload`). @default true
   */
  reconnect?: boolean | ReconnectOptions;
  /**
   * Pings every connected server this often (ms); one that does not answer
   * within `healthCheckTimeoutMs` is treated as dropped: closed, then
   * reconnected. `0` or unset: no pings. @default off
   */
  healthCheckIntervalMs?: number;
  /** How long a server may take to answer a health-check ping (ms). @default the smaller of healthCheckIntervalMs and 10000 */
  healthCheckTimeoutMs?: number;
}

/** Options of `discoverAndConnect`. */
export interface DiscoverAndConnectOptions extends LoadConfigsOptions {
  /** Replaces `loadAllMCPConfigs` (tests inject one that throws). */
  discover?: (cwd: string, options: LoadConfigsOptions) => Promise<LoadConfigsResult>;
}
