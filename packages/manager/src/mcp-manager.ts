import {
  closeConnection,
  listTools,
  type MCPConnectionCloseEvent,
  type MCPServerConnection,
} from "@mcp-rt/client";
import {
  type LoadConfigsResult,
  loadAllMCPConfigs,
  type MCPServerConfig,
  type MCPToolDefinition,
  McpRtError,
  type SourceMeta,
  validateServerConfig,
} from "@mcp-rt/config";
import { abortError } from "./abortable.js";
import { Attempt } from "./attempt.js";
import { type ConnectedServer, connectAndList } from "./connect-and-list.js";
import { ConnectionWatch } from "./connection-watch.js";
import type { CustomTool } from "./custom-tool.js";
import { createEmitter, type TypedEmitter } from "./event-emitter.js";
import { ManagerCache } from "./manager-cache.js";
import type {
  DiscoverAndConnectOptions,
  MCPConnectionStatus,
  MCPLoadResult,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPServerState,
} from "./manager-types.js";
import type { LiveServer, MCPTool, MCPToolHost } from "./mcp-tool.js";
import { ServerRecord, toServerState, unknownServerError } from "./server-record.js";
import { ServerResilience } from "./server-resilience.js";
import { passStartupGate } from "./startup-gate.js";
import { DEFAULT_RESULT_CHAR_LIMIT } from "./tool-result.js";
import { buildToolSet } from "./tool-set.js";

/** The startup gate of the design document. */
export const STARTUP_TIMEOUT_MS = 250;

/**
 * Many MCP servers at once (SPEC §3): connects them in parallel, returns after a
 * short startup gate with live tools, per-server errors and deferred tools from
 * the cache, finishes the rest in the background, follows connections that
 * drop, and closes everything it started.
 *
 * @example
 * ```ts
 * await using manager = new MCPManager(process.cwd());
 * const { tools, errors } = await manager.discoverAndConnect();
 * manager.on("tools:changed", () => registry.refresh(manager.getTools()));
 * ```
 */
export class MCPManager implements AsyncDisposable {
  readonly #connections = new Map<string, MCPServerConnection>();
  readonly #pendingConnections = new Map<string, Promise<MCPServerConnection>>();
  readonly #pendingToolLoads = new Map<string, Promise<ConnectedServer>>();
  #tools: MCPTool[] = [];
  readonly #sources = new Map<string, SourceMeta>();

  readonly #records = new Map<string, ServerRecord>();
  /** Exposed name → (server, original tool name); never derived from the name itself. */
  #toolIndex = new Map<string, { server: string; tool: string }>();
  readonly #cwd: string;
  readonly #options: MCPManagerOptions;
  readonly #cache: ManagerCache;
  readonly #emitter: TypedEmitter<MCPManagerEvents>;
  /** Cache writes and reaps of dropped servers still running: `disconnectAll` waits for them. */
  readonly #background = new Set<Promise<unknown>>();
  readonly #host: MCPToolHost;
  /** Reconnecting (SPEC §4). */
  readonly #resilience: ServerResilience;

  /**
   * @param cwd The project folder: where stdio servers run and what cache entries are keyed by.
   */
  constructor(cwd: string, options: MCPManagerOptions = {}) {
    this.#cwd = cwd;
    this.#options = options;
    this.#cache = new ManagerCache(options.cache, options.logger);
    this.#emitter = createEmitter<MCPManagerEvents>((error) =>
      options.logger?.warn("An MCPManager event listener threw", error),
    );
    this.#host = {
      resultCharLimit: options.resultCharLimit ?? DEFAULT_RESULT_CHAR_LIMIT,
      liveServer: (server) => this.#liveServer(server),
      waitForConnection: async (server, signal) => {
        await this.waitForConnection(server, signal ? { signal } : {});
      },
    };
    this.#resilience = new ServerResilience(options, {
      record: (name) => this.#records.get(name),
      isActive: (name) => this.#isConnectedOrPending(name),
      reconnect: (name, record) => this.#start(name, record.config, true),
      fail: (name, record, error) => this.#fail(name, record, error),
      connections: () => this.#connections.values(),
      unhealthy: (connection, error) =>
        this.#dropped(connection.name, connection, { reason: error.message, error, reconnect: true }),
      emitter: this.#emitter,
      logger: options.logger,
    });
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends keyof MCPManagerEvents>(
    event: E,
    listener: (payload: MCPManagerEvents[E]) => void,
  ): () => void {
    return this.#emitter.on(event, listener);
  }

  /**
   * Discovers the server configs of `cwd` (`loadAllMCPConfigs`, or `options.discover`)
   * and connects them. Throws only when discovery itself fails.
   */
  async discoverAndConnect(options: DiscoverAndConnectOptions = {}): Promise<MCPLoadResult> {
    const { discover, ...loadOptions } = options;
    const discovery: LoadConfigsResult = await (discover ?? loadAllMCPConfigs)(this.#cwd, loadOptions);
    const result = await this.connectServers(discovery.configs, discovery.sources);
    // TODO(lead): the Exa keys are the session's business; gathered here from `filtered` for now.
    const exaApiKeys = [
      ...new Set(discovery.filtered.filter((entry) => entry.reason === "exa").flatMap((entry) => entry.keys)),
    ];
    return { ...result, exaApiKeys, discovery };
  }

  /**
   * Connects every server not yet connected or connecting, in parallel, and
   * returns after the startup gate (§3.5): live tools of servers that finished,
   * errors of those that failed, deferred tools (from the cache) of those still
   * pending; pending servers without a cache entry are waited for.
   * A server waiting for its next reconnect attempt, or given up by the
   * circuit breaker, is connected at once and its reconnect counts start over.
   */
  async connectServers(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta> = {},
  ): Promise<MCPLoadResult> {
    const errors = new Map<string, string>();
    const names: string[] = [];
    const attempts = new Map<string, Attempt>();
    for (const [name, config] of Object.entries(configs)) {
      const source = sources[name];
      if (source) this.#sources.set(name, source);
      // Only `enabled: false` skips; anything else (even garbage) goes to validation, which names the problem.
      if (typeof config === "object" && config !== null && config.enabled === false) continue;
      names.push(name);
      const record = this.#records.get(name);
      if (record && this.#isConnectedOrPending(name)) {
        if (record.attempt && !record.attempt.outcome) attempts.set(name, record.attempt);
        continue;
      }
      // Connecting on purpose resets reconnecting: its backoff, and a breaker that gave up.
      this.#resilience.cancel(name);
      const problems = validateServerConfig(name, config);
      if (problems.length > 0) {
        const error = new McpRtError(
          "CONFIG_INVALID",
          `MCP server "${name}" has an invalid config${source ? ` in ${source.path}` : ""}: ${problems.join("; ")}`,
          { server: name },
        );
        this.#fail(name, this.#record(name, config), error);
        errors.set(name, error.message);
        continue;
      }
      attempts.set(name, this.#start(name, config));
    }

    await passStartupGate([...attempts.values()], {
      startupTimeoutMs: this.#options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS,
      maxStartupWaitMs: this.#options.maxStartupWaitMs,
      defer: (attempt, cached) => this.#installDeferred(attempt, cached),
    });

    for (const [name, attempt] of attempts) {
      attempt.returned = true;
      if (attempt.outcome?.ok === false) errors.set(name, attempt.outcome.error.message);
      // Dropped after it connected: since then no other attempt started, or only automatic reconnects.
      const latest = this.#records.get(name)?.attempt;
      const dropped =
        attempt.outcome?.ok &&
        !this.#connections.has(name) &&
        !attempt.controller.signal.aborted &&
        (latest === attempt || latest?.reconnect === true);
      if (dropped) errors.set(name, this.#dropMessage(name));
    }
    const wanted = new Set(names);
    return {
      tools: this.#tools.filter((tool) => wanted.has(tool.serverName)),
      errors,
      connectedServers: names.filter((name) => this.#connections.has(name)),
      exaApiKeys: [],
    };
  }

  /** The current MCP tools of every server: live, or deferred from the cache. */
  getTools(): CustomTool[] {
    return [...this.#tools];
  }

  /** Which server and original tool an exposed name stands for. */
  getToolOwner(exposedName: string): { server: string; tool: string } | undefined {
    const owner = this.#toolIndex.get(exposedName);
    return owner ? { ...owner } : undefined;
  }

  /** `connected`, `connecting` (handshake or tool list pending), else `disconnected` (§3.4). */
  getConnectionStatus(name: string): MCPConnectionStatus {
    if (this.#connections.has(name)) return "connected";
    if (this.#pendingConnections.has(name) || this.#pendingToolLoads.has(name)) return "connecting";
    return "disconnected";
  }

  /** Every known server with its status, tool count, timing and last error, for a UI. */
  getServerStates(): MCPServerState[] {
    const names = new Set([...this.#records.keys(), ...this.#sources.keys()]);
    return [...names].map((name) =>
      toServerState(
        name,
        this.getConnectionStatus(name),
        this.#records.get(name),
        this.#sources.get(name),
        this.#resilience.reconnectAttempt(name),
      ),
    );
  }

  /**
   * Resolves with the server's connection once it is connected and its tools
   * are listed. Rejects with an `McpRtError` right away for an unknown server
   * (`UNKNOWN_SERVER`), a failed one (its failure) or one that is not
   * connecting (`NOT_CONNECTED`, also while a dropped server waits for its
   * next reconnect attempt); waits at most the server's `timeout`
   * (`CONNECT_TIMEOUT`); rejects with an `AbortError` when `signal` aborts.
   */
  async waitForConnection(
    name: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<MCPServerConnection> {
    const { signal } = options;
    if (signal?.aborted) throw abortError(signal);
    const connection = this.#connections.get(name);
    if (connection) return connection;
    const record = this.#records.get(name);
    if (!record) throw unknownServerError(name, [...this.#records.keys()]);
    const attempt = record.attempt;
    if (!attempt || attempt.outcome) throw record.notConnected(name, this.#resilience.reconnectAttempt(name));
    return attempt.wait(signal);
  }

  /**
   * Stops one server (§3.9): forgets its pending work and source, closes its
   * transport (or the connection an ongoing attempt is making), and drops
   * exactly its tools.
   */
  async disconnectServer(name: string): Promise<void> {
    const stopped = this.#forget(name);
    if (stopped.hadTools) this.#rebuildTools();
    this.#announceStopped(name, stopped);
    await stopped.closed;
  }

  /** Stops every server (§3.9): closes all transports and clears every map and the tool list. */
  async disconnectAll(): Promise<void> {
    const names = new Set([...this.#records.keys(), ...this.#sources.keys(), ...this.#connections.keys()]);
    const stopped = [...names].map((name) => ({ name, ...this.#forget(name) }));
    this.#resilience.stop();
    this.#rebuildTools();
    for (const entry of stopped) this.#announceStopped(entry.name, entry);
    await Promise.allSettled(this.#background);
  }

  /**
   * `await using manager = new MCPManager(cwd)` disconnects everything at the
   * end of the scope, and closes the cache if the manager made it (the default
   * one) or the loader made it for this manager (`cacheStorage` URL).
   */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.disconnectAll();
    await this.#cache.close();
  }

  /**
   * Removes a server from every map at once and calls off its attempt; the
   * returned promise settles once its transport (or the attempt's) is closed.
   */
  #forget(name: string): { wasActive: boolean; hadTools: boolean; closed: Promise<unknown> } {
    const record = this.#records.get(name);
    const connection = this.#connections.get(name);
    const wasActive = this.#isConnectedOrPending(name);
    this.#sources.delete(name);
    this.#pendingConnections.delete(name);
    this.#pendingToolLoads.delete(name);
    this.#connections.delete(name);
    this.#records.delete(name);
    this.#resilience.cancel(name);
    record?.unsubscribe?.();
    record?.attempt?.controller.abort(this.#removedError(name));
    const closed = Promise.allSettled([connection && closeConnection(connection), record?.attempt?.done]);
    // Tracked, so a later disconnectAll also waits for closes already under way.
    this.#inBackground(closed);
    return { wasActive, hadTools: (record?.definitions.length ?? 0) > 0, closed };
  }

  #announceStopped(name: string, stopped: { wasActive: boolean; hadTools: boolean }): void {
    if (stopped.wasActive)
      this.#emitter.emit("server:disconnected", { name, reason: "disconnected by the caller" });
    if (stopped.hadTools) this.#emitter.emit("tools:changed", { name });
  }

  #isConnectedOrPending(name: string): boolean {
    return this.getConnectionStatus(name) !== "disconnected";
  }

  #isCurrent(name: string, attempt: Attempt): boolean {
    return this.#records.get(name)?.attempt === attempt && !attempt.controller.signal.aborted;
  }

  #removedError(name: string): McpRtError {
    return new McpRtError("NOT_CONNECTED", `MCP server "${name}" was disconnected while it was connecting`, {
      server: name,
    });
  }

  #record(name: string, config: MCPServerConfig): ServerRecord {
    const record = this.#records.get(name) ?? new ServerRecord(config);
    this.#records.set(name, record);
    record.config = config;
    return record;
  }

  /**
   * Starts the §3.5 pipeline of one server and its cache read, together; a
   * reconnect reads no cache (the server's tools are still there) and
   * announces itself with `server:reconnecting` instead of `server:connecting`.
   */
  #start(name: string, config: MCPServerConfig, reconnect = false): Attempt {
    const record = this.#record(name, config);
    if (!reconnect) this.#emitter.emit("server:connecting", { name });
    return new Attempt({
      name,
      config,
      cache: reconnect ? null : this.#cache.get(),
      cwd: this.#cwd,
      reconnect,
      run: (started) => {
        // Set before the pipeline's first step, so that the pipeline can tell whether it is still current.
        record.start(started);
        return this.#pipeline(name, started);
      },
    });
  }

  async #pipeline(name: string, attempt: Attempt): Promise<MCPServerConnection> {
    let connecting: Promise<MCPServerConnection> | undefined;
    let listing: Promise<ConnectedServer> | undefined;
    let watch: ConnectionWatch | undefined;
    const forget = (): void => {
      if (this.#pendingConnections.get(name) === connecting) this.#pendingConnections.delete(name);
      if (this.#pendingToolLoads.get(name) === listing) this.#pendingToolLoads.delete(name);
    };
    const sourcePath = this.#sources.get(name)?.path;
    try {
      const { connection, serverTools } = await connectAndList(name, attempt.config, {
        cwd: this.#cwd,
        signal: attempt.controller.signal,
        ...(this.#options.authStorage ? { authStorage: this.#options.authStorage } : {}),
        ...(sourcePath ? { sourcePath } : {}),
        onConnecting: (promise) => {
          connecting = promise;
          this.#pendingConnections.set(name, promise);
        },
        onConnected: (connection) => {
          watch = this.#watch(name, connection);
        },
        onListing: (promise) => {
          forget();
          listing = promise;
          this.#pendingToolLoads.set(name, promise);
        },
      });
      forget();
      if (!this.#isCurrent(name, attempt) || !watch) {
        watch?.stop();
        await closeConnection(connection).catch(() => {});
        throw this.#removedError(name);
      }
      this.#commit(name, attempt, { connection, serverTools, watch });
      return connection;
    } catch (error) {
      forget();
      watch?.stop();
      const failure = McpRtError.isInstance(error) ? error : this.#removedError(name);
      if (this.#isCurrent(name, attempt)) {
        if (attempt.reconnect) this.#resilience.attemptFailed(name, failure);
        else this.#fail(name, this.#records.get(name)!, failure, attempt);
      }
      throw failure;
    }
  }

  /** The attempt connected and listed: its live tools replace the server's slice (the live list wins). */
  #commit(name: string, attempt: Attempt, live: ConnectedServer & { watch: ConnectionWatch }): void {
    const { connection, serverTools, watch } = live;
    const record = this.#records.get(name)!;
    this.#connections.set(name, connection);
    this.#resilience.connected(name);
    const ms = Math.round(performance.now() - attempt.startedAt);
    record.connect(serverTools, ms, () => watch.stop());
    this.#rebuildTools();
    this.#emitter.emit("server:connected", { name, ms, toolCount: record.definitions.length });
    this.#emitter.emit("tools:changed", { name });
    this.#writeCache(name, attempt.config, connection, serverTools);
    watch.activate();
  }

  /** Follows a new connection from its handshake on: close, errors, `list_changed`. */
  #watch(name: string, connection: MCPServerConnection): ConnectionWatch {
    return new ConnectionWatch({
      connection,
      onClose: (event) => this.#onConnectionClosed(name, connection, event),
      onError: (error) => this.#options.logger?.debug(`MCP server "${name}" reported an error`, error),
      relist: (signal) => this.#relist(name, connection, signal),
      logger: this.#options.logger,
    });
  }

  /**
   * `notifications/tools/list_changed`: lists every page again and replaces
   * exactly this server's slice, if the connection is still the current one.
   */
  async #relist(name: string, connection: MCPServerConnection, signal: AbortSignal): Promise<void> {
    const serverTools = await listTools(connection, { signal });
    const record = this.#records.get(name);
    if (signal.aborted || !record || this.#connections.get(name) !== connection) return;
    record.relisted(serverTools);
    this.#rebuildTools();
    this.#emitter.emit("tools:changed", { name });
    this.#writeCache(name, record.config, connection, serverTools);
  }

  /**
   * Best-effort cache write of a server's full, unfiltered list (§3.5 step 7).
   * It starts on the next event-loop turn, so that its validation and
   * serialisation (about 12 ms for 5000 tools) are not on the way of the
   * `connectServers` call that is about to return; `disconnectAll` (and
   * disposing) still waits for it.
   */
  #writeCache(
    name: string,
    config: MCPServerConfig,
    connection: MCPServerConnection,
    serverTools: MCPToolDefinition[],
  ): void {
    const cache = this.#cache.get();
    if (!cache) return;
    const { serverInfo } = connection;
    const write = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      cache.set(name, config, serverTools, this.#cwd, { serverInfo }),
    );
    this.#inBackground(write);
  }

  /** The config or the attempt failed; `attempt` is the attempt, when there was one. */
  #fail(name: string, record: ServerRecord, error: McpRtError, attempt?: Attempt): void {
    const hadTools = record.fail(error);
    if (hadTools) this.#rebuildTools();
    this.#emitter.emit("server:failed", { name, error });
    if (hadTools) this.#emitter.emit("tools:changed", { name });
    // A failure the caller already received in `errors` is not logged again.
    if (attempt?.returned)
      this.#options.logger?.warn(`MCP server "${name}" failed after startup: ${error.message}`);
  }

  #onConnectionClosed(name: string, connection: MCPServerConnection, event: MCPConnectionCloseEvent): void {
    const error = event.error ?? new McpRtError("TRANSPORT_CLOSED", event.reason, { server: name });
    // A close the client asked for (`expected`) is someone's decision: it is not undone.
    this.#dropped(name, connection, { reason: event.reason, error, reconnect: !event.expected });
  }

  /**
   * A live connection went away (its transport closed, or it failed a health
   * check): the server leaves `connected` at once, its tools stay but fail
   * fast, what is left of it is reaped, and it is reconnected unless
   * reconnecting is off.
   */
  #dropped(
    name: string,
    connection: MCPServerConnection,
    drop: { reason: string; error: McpRtError; reconnect: boolean },
  ): void {
    if (this.#connections.get(name) !== connection) return;
    const record = this.#records.get(name);
    this.#connections.delete(name);
    record?.drop(drop.reason, drop.error);
    // Reaps what is left of the server (its process group) even though it went away on its own.
    this.#inBackground(closeConnection(connection));
    const reconnect = drop.reconnect && this.#resilience.reconnects;
    // A drop before `connectServers` returned is reported in its `errors` instead; a server
    // that keeps dying while it is being reconnected is logged once, when the breaker opens.
    if (this.#resilience.inOutage(name)) {
      this.#options.logger?.debug(`${this.#dropMessage(name)}; still reconnecting`);
    } else if (record?.attempt?.returned !== false) {
      this.#options.logger?.warn(`${this.#dropMessage(name)}${reconnect ? "; reconnecting" : ""}`);
    }
    this.#emitter.emit("server:disconnected", { name, reason: drop.reason });
    if (reconnect && record) this.#resilience.dropped(name, record);
  }

  /** Why a server that was connected is not any more. */
  #dropMessage(name: string): string {
    return this.#records.get(name)?.lastError?.message ?? `MCP server "${name}" disconnected`;
  }

  /** Exposes a pending attempt's cached tools as deferred tools; false when the attempt is no longer current. */
  #installDeferred(attempt: Attempt, cached: MCPToolDefinition[]): boolean {
    const { name } = attempt;
    if (!this.#isCurrent(name, attempt)) return false;
    if (!this.#records.get(name)!.defer(cached)) return true;
    this.#rebuildTools();
    this.#emitter.emit("tools:changed", { name });
    return true;
  }

  #inBackground(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work.catch(() => {}).finally(() => this.#background.delete(tracked));
    this.#background.add(tracked);
  }

  #liveServer(server: string): LiveServer {
    const connection = this.#connections.get(server);
    const record = this.#records.get(server);
    // A connected server's definitions are always its live ones (the cached ones only stand in before).
    if (connection && record) {
      return { connection, toolNames: record.toolNames };
    }
    if (!record) return { error: `server "${server}" disconnected: it was removed from this session` };
    // A call to a server that dropped fails fast, even during a reconnect attempt: a model should not stall on it.
    const reconnectAttempt = this.#resilience.reconnectAttempt(server);
    if (reconnectAttempt !== undefined) return { error: record.unavailable(server, reconnectAttempt) };
    if (this.#isConnectedOrPending(server)) return { pending: true };
    return { error: record.unavailable(server) };
  }

  /** Rebuilds the tool view from every server's slice (§6 names over the whole set). */
  #rebuildTools(): void {
    const slices = [...this.#records].map(([server, record]) => {
      const source = this.#sources.get(server);
      return {
        server,
        definitions: record.definitions,
        deferred: record.deferred,
        ...(source ? { source } : {}),
      };
    });
    const { tools, index } = buildToolSet(slices, this.#tools, this.#host);
    this.#tools = tools;
    this.#toolIndex = index;
  }
}
