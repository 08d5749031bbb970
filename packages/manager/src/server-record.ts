import { type MCPServerConfig, type MCPToolDefinition, McpRtError, type SourceMeta } from "@mcp-rt/config";
import type { Attempt } from "./attempt.js";
import type { MCPConnectionStatus, MCPServerState } from "./manager-types.js";
import { filterServerTools } from "./tool-filter.js";

/**
 * What the manager knows of one server beyond the §3.4 maps (which say whether
 * it is connected or pending): its tools, its last attempt, how it last failed
 * or went away.
 */
export class ServerRecord {
  /** The latest unresolved config. */
  config: MCPServerConfig;
  /** The latest attempt to connect. */
  attempt?: Attempt;
  /** The exposed (filtered) definitions: live, or from the cache while `deferred`. */
  definitions: MCPToolDefinition[] = [];
  /** True while the definitions come from the cache. */
  deferred = false;
  /** How long the last successful connect + list took. */
  connectedMs?: number;
  /** The last failure or drop. */
  lastError?: McpRtError;
  /** True when the last attempt (or config) failed. */
  failed = false;
  /** Why the last live connection went away. */
  disconnectReason?: string;
  /** Unsubscribes from the live connection's close/error events. */
  unsubscribe?: () => void;
  /** The names of `definitions`, for the list they were built from. */
  #toolNames?: { of: readonly MCPToolDefinition[]; names: ReadonlySet<string> };

  constructor(config: MCPServerConfig) {
    this.config = config;
  }

  /**
   * The names of `definitions`, as a set: built once per tool list, so that a
   * call checks its tool in O(1) even on a server with thousands of tools.
   */
  get toolNames(): ReadonlySet<string> {
    if (this.#toolNames?.of !== this.definitions) {
      this.#toolNames = { of: this.definitions, names: new Set(this.definitions.map((tool) => tool.name)) };
    }
    return this.#toolNames.names;
  }

  /** A new attempt starts. */
  start(attempt: Attempt): void {
    this.attempt = attempt;
    this.config = attempt.config;
    this.failed = false;
  }

  /** Cached definitions stand in while the server connects; returns whether there are any. */
  defer(cached: readonly MCPToolDefinition[]): boolean {
    this.definitions = filterServerTools(cached, this.config);
    this.deferred = true;
    return this.definitions.length > 0;
  }

  /** Connected and listed: the live definitions replace whatever stood in (the live list wins). */
  connect(serverTools: readonly MCPToolDefinition[], connectedMs: number, unsubscribe: () => void): void {
    this.definitions = filterServerTools(serverTools, this.config);
    this.deferred = false;
    this.connectedMs = connectedMs;
    this.unsubscribe = unsubscribe;
    delete this.disconnectReason;
  }

  /** The server announced new tools and they were listed again: they replace the live ones. */
  relisted(serverTools: readonly MCPToolDefinition[]): void {
    this.definitions = filterServerTools(serverTools, this.config);
    this.deferred = false;
  }

  /** The config or the attempt failed: no tools. Returns whether it had tools. */
  fail(error: McpRtError): boolean {
    const hadTools = this.definitions.length > 0;
    this.failed = true;
    this.lastError = error;
    this.definitions = [];
    this.deferred = false;
    return hadTools;
  }

  /** A reconnect attempt failed: its error is the last one; the tools stay while reconnecting goes on. */
  retrying(error: McpRtError): void {
    this.failed = false;
    this.lastError = error;
  }

  /** The live connection went away; its tools stay, so that a reconnect brings them back. */
  drop(reason: string, error: McpRtError): void {
    this.unsubscribe?.();
    delete this.unsubscribe;
    this.disconnectReason = reason;
    this.lastError = error;
  }

  /**
   * Why `waitForConnection` cannot wait for it (no attempt pending): its
   * failure, or `NOT_CONNECTED` (while `reconnectAttempt` waits for its timer, too).
   */
  notConnected(name: string, reconnectAttempt?: number): McpRtError {
    if (this.failed && this.lastError) return this.lastError;
    const why = this.disconnectReason ? ` (${this.disconnectReason})` : "";
    const next =
      reconnectAttempt === undefined
        ? "reconnect it, e.g. with /mcp reload"
        : `it is being reconnected (attempt ${reconnectAttempt})`;
    return new McpRtError("NOT_CONNECTED", `MCP server "${name}" is not connected${why}; ${next}`, {
      server: name,
    });
  }

  /**
   * Why its tools cannot be called, for a server neither connected nor
   * pending, or one being reconnected (`reconnectAttempt` set).
   */
  unavailable(name: string, reconnectAttempt?: number): string {
    if (this.failed && this.lastError) return `server "${name}" is unavailable: ${this.lastError.message}`;
    const why = this.disconnectReason ?? "it is not connected";
    if (reconnectAttempt !== undefined) {
      return `server "${name}" disconnected: ${why}. It is being reconnected (attempt ${reconnectAttempt}); try again in a moment`;
    }
    return `server "${name}" disconnected: ${why}. Reconnect it (e.g. /mcp reload) to use its tools`;
  }
}

/** `waitForConnection` for a server the manager does not know. */
export function unknownServerError(name: string, known: readonly string[]): McpRtError {
  return new McpRtError(
    "UNKNOWN_SERVER",
    `No MCP server named "${name}" is configured${known.length > 0 ? ` (known: ${known.join(", ")})` : ""}`,
    { server: name },
  );
}

/**
 * A server's state for a UI, from its record, source and §3.4 status;
 * `reconnectAttempt` is set while it is being reconnected.
 */
export function toServerState(
  name: string,
  status: MCPConnectionStatus,
  record: ServerRecord | undefined,
  source: SourceMeta | undefined,
  reconnectAttempt?: number,
): MCPServerState {
  const state: MCPServerState = {
    name,
    status:
      reconnectAttempt !== undefined
        ? "reconnecting"
        : status === "disconnected" && record?.failed
          ? "failed"
          : status,
    toolCount: record?.definitions.length ?? 0,
    deferred: record?.deferred ?? false,
  };
  if (source) state.source = source;
  if (reconnectAttempt !== undefined) state.reconnectAttempt = reconnectAttempt;
  if (record?.connectedMs !== undefined) state.connectedMs = record.connectedMs;
  if (record?.lastError) {
    const { code, message, stderrTail } = record.lastError;
    state.lastError = { code, message, ...(stderrTail ? { stderrTail } : {}) };
  }
  return state;
}
