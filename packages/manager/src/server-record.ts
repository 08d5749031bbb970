import { toolCacheFingerprint } from "@mcp-rt/cache";
import type { MCPEraVerdict, MCPServerConnection } from "@mcp-rt/client";
import { type MCPServerConfig, type MCPToolDefinition, McpRtError, type SourceMeta } from "@mcp-rt/config";
import type { Attempt } from "./attempt.js";
import type { ConnectionWatch } from "./connection-watch.js";
import type {
  MCPConnectionStatus,
  MCPNotWaitedFor,
  MCPServerProtocol,
  MCPServerState,
} from "./manager-types.js";
import type { ReconnectPolicy } from "./reconnect-policy.js";
import { type ContentList, capInstructions, NO_CONTENT, type ServerContent } from "./server-content.js";
import { appOnlyToolNames, filterServerTools } from "./tool-filter.js";

/**
 * Where one server is in its life (see docs/architecture.md):
 * - `idle`: known (from its config source) but not running: never started,
 *   disabled, or dropped with reconnecting off;
 * - `connecting`: an attempt is resolving its config and doing the handshake;
 * - `listing`: the handshake succeeded, the first `tools/list` is running;
 * - `connected`: live, its tools are the server's own;
 * - `reconnecting`: it dropped, and the next automatic attempt is scheduled
 *   (during that attempt the phase is `connecting`/`listing` again);
 * - `failed`: the last attempt failed, or reconnecting gave up;
 * - `needs-auth`: a remote server that needs the user to sign in (again):
 *   it waits for `login`, never for a reconnect timer.
 */
export type ServerPhase =
  | "idle"
  | "connecting"
  | "listing"
  | "connected"
  | "reconnecting"
  | "failed"
  | "needs-auth";

/** The reconnect bookkeeping of a server since it last dropped. */
export interface Outage {
  /** Its backoff and circuit breaker. */
  readonly policy: ReconnectPolicy;
  /** Set while waiting for the next attempt. */
  timer?: NodeJS.Timeout;
}

/**
 * Everything the manager knows of one server, in one place: its config and
 * source, its phase, the attempt under way, the live connection and what
 * watches it, its tool slice, its last error and its reconnect bookkeeping.
 * Every status the manager reports is derived from this record.
 */
export class ServerRecord {
  /** The config name. */
  readonly name: string;
  /** The latest unresolved config. */
  config: MCPServerConfig;
  /** Where the config came from, when known. */
  source?: SourceMeta;
  /** Where the server is in its life. */
  phase: ServerPhase = "idle";
  /** The latest attempt to connect (first, on purpose, or automatic). */
  attempt?: Attempt;
  /** The live connection, while `connected`. */
  connection?: MCPServerConnection;
  /** Follows the connection of the current attempt (close, errors, `list_changed`) from its handshake on. */
  watch?: ConnectionWatch;
  /** The exposed (filtered) tool definitions: live, or from the cache while `deferred`. */
  definitions: MCPToolDefinition[] = [];
  /** Tools it offers for an app's UI only (MCP Apps visibility without `"model"`): never exposed. */
  appOnlyTools: string[] = [];
  /** The server's full, unfiltered tool list as last listed live: what the cache keeps. */
  listedTools: readonly MCPToolDefinition[] = [];
  /** True while the definitions come from the cache. */
  deferred = false;
  /** Its resources, resource templates and prompts: live, or from the cache while `deferred`. */
  content: ServerContent = NO_CONTENT;
  /** Its `instructions` from `initialize` (capped at 2048 characters, with a note when cut): live or cached. */
  instructions?: string;
  /** The URIs subscribed to with `subscribeResource`: subscribed again after a reconnect. */
  readonly subscriptions: Set<string> = new Set();
  /** How long the last successful connect + list took (ms). */
  connectedMs?: number;
  /** The era its last connection found, and the config it was found with: a reconnect with that config sends no probe. */
  lastEra?: { config: MCPServerConfig; verdict: MCPEraVerdict };
  /** The era and revision its last connection speaks, and how they were decided. */
  protocol?: MCPServerProtocol;
  /** While the current attempt is under way without cached tools: why startup did not wait for it. */
  notWaitedFor?: MCPNotWaitedFor;
  /** The last failure or drop. */
  lastError?: McpRtError;
  /** Why the last live connection went away. */
  disconnectReason?: string;
  /** Reconnect bookkeeping, from a drop until the server is stopped or connected on purpose. */
  outage?: Outage;
  /**
   * The fingerprint of what the current attempt resolved and handed to the
   * server (env, args, headers after `!cmd` values and API keys), once it did:
   * a reload compares it to see whether those values changed.
   */
  resolvedFingerprint?: string;
  /** The names of `definitions`, for the list they were built from. */
  #toolNames?: { of: readonly MCPToolDefinition[]; names: ReadonlySet<string> };
  /** The fingerprint of `config`, for the config it was made of. */
  #fingerprint?: { of: MCPServerConfig; value: string };
  /** The limits it passed that were logged already: each is logged once. */
  readonly #warned = new Set<string>();

  constructor(name: string, config: MCPServerConfig) {
    this.name = name;
    this.config = config;
  }

  /** The design document's three statuses: `connected`, `connecting` (an attempt under way), else `disconnected`. */
  get status(): MCPConnectionStatus {
    if (this.phase === "connected") return "connected";
    if (this.phase === "connecting" || this.phase === "listing") return "connecting";
    return "disconnected";
  }

  /** True while it is connected or an attempt of it is under way. */
  get active(): boolean {
    return this.status !== "disconnected";
  }

  /** True from a drop until it is back, given up, or stopped: waiting for an automatic attempt, or in one. */
  get reconnecting(): boolean {
    return (
      this.phase === "reconnecting" ||
      (this.active && this.phase !== "connected" && !!this.attempt?.reconnect)
    );
  }

  /** While it is reconnecting: the number of the attempt running or scheduled (1, 2, …). */
  get reconnectAttempt(): number | undefined {
    return this.reconnecting ? this.outage?.policy.attempts : undefined;
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

  /** True once it was started (even if it failed at once): not merely remembered with `enabled: false`. */
  get started(): boolean {
    return this.attempt !== undefined || this.phase !== "idle";
  }

  /**
   * Whether it runs with `config`, judged as the tool cache keys entries: the
   * fingerprint of the unresolved config (and, for stdio, its folder).
   */
  runs(config: MCPServerConfig, cwd: string): boolean {
    if (this.#fingerprint?.of !== this.config) {
      this.#fingerprint = { of: this.config, value: toolCacheFingerprint(this.name, this.config, cwd) };
    }
    return this.#fingerprint.value === toolCacheFingerprint(this.name, config, cwd);
  }

  /** True the first time it is asked about `what` (a limit it passed): that is when to log it. */
  firstTime(what: string): boolean {
    if (this.#warned.has(what)) return false;
    this.#warned.add(what);
    return true;
  }

  /** A new attempt starts: it is `connecting`. */
  start(attempt: Attempt): void {
    this.attempt = attempt;
    this.config = attempt.config;
    this.phase = "connecting";
    delete this.resolvedFingerprint;
    delete this.notWaitedFor;
  }

  /** Cached definitions stand in while the server connects; returns whether there are any. */
  defer(cached: readonly MCPToolDefinition[]): boolean {
    this.definitions = filterServerTools(cached, this.config);
    this.appOnlyTools = appOnlyToolNames(cached, this.config);
    this.deferred = true;
    delete this.notWaitedFor;
    return this.definitions.length > 0;
  }

  /** Cached resources, prompts and instructions stand in too; returns the lists that changed. */
  deferContent(cached: Partial<ServerContent> & { instructions?: string | undefined }): ContentList[] {
    this.#setInstructions(cached.instructions);
    return this.setContent(cached);
  }

  /** Connected and listed: the live definitions replace whatever stood in (the live list wins). */
  connect(
    connection: MCPServerConnection,
    serverTools: readonly MCPToolDefinition[],
    connectedMs: number,
  ): void {
    this.phase = "connected";
    this.connection = connection;
    this.connectedMs = connectedMs;
    const verdict = connection.eraVerdict;
    this.lastEra = { config: connection.config, verdict };
    this.protocol = { era: verdict.era, version: verdict.protocolVersion, decision: connection.eraDecision };
    this.relisted(serverTools);
    this.#setInstructions(connection.instructions);
    delete this.disconnectReason;
    delete this.notWaitedFor;
  }

  /**
   * New resources (and templates) or prompts replace the ones it has, list
   * by list (a list not given stays); returns the lists that changed.
   */
  setContent(next: Partial<ServerContent>): ContentList[] {
    const before = this.content;
    const content: ServerContent = { ...before, ...next };
    this.content = content;
    const changed: ContentList[] = [];
    const differ = (a: readonly unknown[], b: readonly unknown[]): boolean =>
      a !== b && (a.length !== b.length || JSON.stringify(a) !== JSON.stringify(b));
    if (
      differ(before.resources, content.resources) ||
      differ(before.resourceTemplates, content.resourceTemplates)
    )
      changed.push("resources");
    if (differ(before.prompts, content.prompts)) changed.push("prompts");
    return changed;
  }

  #setInstructions(text: string | undefined): void {
    const capped = capInstructions(text);
    if (capped === undefined) delete this.instructions;
    else this.instructions = capped;
  }

  /** The server's tools were listed again: they replace the exposed ones. */
  relisted(serverTools: readonly MCPToolDefinition[]): void {
    this.listedTools = serverTools;
    this.definitions = filterServerTools(serverTools, this.config);
    this.appOnlyTools = appOnlyToolNames(serverTools, this.config);
    this.deferred = false;
  }

  /**
   * The config or the attempt failed, reconnecting gave up (`failed`), or the
   * server needs a sign-in (`needs-auth`): no tools. Returns whether it had tools.
   */
  fail(error: McpRtError, phase: "failed" | "needs-auth" = "failed"): boolean {
    const hadTools = this.definitions.length > 0;
    this.phase = phase;
    this.lastError = error;
    this.definitions = [];
    this.appOnlyTools = [];
    this.deferred = false;
    delete this.instructions;
    delete this.notWaitedFor;
    return hadTools;
  }

  /** An automatic attempt failed: its error is the last one; the tools stay while reconnecting goes on. */
  retrying(error: McpRtError): void {
    this.phase = "reconnecting";
    this.lastError = error;
  }

  /**
   * The live connection went away: it is no longer `connected` (`reconnecting`
   * when an automatic attempt follows, else `idle`). Its tools stay, so that a
   * reconnect brings them back; calls fail fast meanwhile.
   */
  drop(reason: string, error: McpRtError, reconnect: boolean): void {
    this.watch?.stop();
    delete this.watch;
    delete this.connection;
    this.phase = reconnect ? "reconnecting" : "idle";
    this.disconnectReason = reason;
    this.lastError = error;
  }

  /** Stops following the connection and forgets the reconnect timer (the record is being removed or restarted). */
  quiet(): void {
    this.watch?.stop();
    delete this.watch;
    if (this.outage?.timer) clearTimeout(this.outage.timer);
    delete this.outage;
  }

  /**
   * Why `waitForConnection` cannot wait for it (no attempt under way): its
   * failure, or `NOT_CONNECTED` (also while it waits for a reconnect attempt).
   */
  notConnected(): McpRtError {
    const { reconnectAttempt } = this;
    if (this.#stopped && this.lastError) return this.lastError;
    const why = this.disconnectReason ? ` (${this.disconnectReason})` : "";
    const next =
      reconnectAttempt === undefined
        ? "reconnect it, e.g. with /mcp reload"
        : `it is being reconnected (attempt ${reconnectAttempt})`;
    return new McpRtError("NOT_CONNECTED", `MCP server "${this.name}" is not connected${why}; ${next}`, {
      server: this.name,
    });
  }

  /** Why its tools cannot be called now: it is neither connected nor connecting, or it is being reconnected. */
  unavailable(): string {
    const { name, reconnectAttempt } = this;
    if (this.#stopped && this.lastError) return `server "${name}" is unavailable: ${this.lastError.message}`;
    const why = this.disconnectReason ?? "it is not connected";
    if (reconnectAttempt !== undefined) {
      return `server "${name}" disconnected: ${why}. It is being reconnected (attempt ${reconnectAttempt}); try again in a moment`;
    }
    return `server "${name}" disconnected: ${why}. Reconnect it (e.g. /mcp reload) to use its tools`;
  }

  /** The server as a UI shows it. */
  state(): MCPServerState {
    const { reconnectAttempt } = this;
    const state: MCPServerState = {
      name: this.name,
      status: this.#uiStatus(),
      toolCount: this.definitions.length,
      deferred: this.deferred,
    };
    const { resources, resourceTemplates, prompts } = this.content;
    if (resources.length + resourceTemplates.length > 0)
      state.resourceCount = resources.length + resourceTemplates.length;
    if (prompts.length > 0) state.promptCount = prompts.length;
    if (this.appOnlyTools.length > 0) state.appOnlyTools = [...this.appOnlyTools];
    if (this.instructions !== undefined) state.instructions = this.instructions;
    if (this.source) state.source = this.source;
    // The config of a record may be anything a caller passed (validation names the problem).
    if ((this.config as Partial<MCPServerConfig> | null)?.alwaysLoad === true) state.alwaysLoad = true;
    if (reconnectAttempt !== undefined) state.reconnectAttempt = reconnectAttempt;
    if (this.connectedMs !== undefined) state.connectedMs = this.connectedMs;
    if (this.protocol) state.protocol = { ...this.protocol, decision: { ...this.protocol.decision } };
    if (this.notWaitedFor) state.notWaitedFor = { ...this.notWaitedFor };
    if (this.lastError) {
      const { code, message, stderrTail } = this.lastError;
      state.lastError = { code, message, ...(stderrTail ? { stderrTail } : {}) };
    }
    return state;
  }

  /** Failed or waiting for a sign-in: its last error says why, and what to do. */
  get #stopped(): boolean {
    return this.phase === "failed" || this.phase === "needs-auth";
  }

  #uiStatus(): MCPServerState["status"] {
    if (this.reconnecting) return "reconnecting";
    if (this.phase === "failed" || this.phase === "needs-auth") return this.phase;
    return this.status;
  }
}
