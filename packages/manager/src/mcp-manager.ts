import type { MCPPromptResult, MCPResourceContents, MCPServerConnection, SignInStatus } from "@mcp-rt/client";
import {
  type AuthStorage,
  loadAllMCPConfigs,
  type MCPServerConfig,
  McpRtError,
  type SourceMeta,
  validateServerConfig,
} from "@mcp-rt/config";
import { monotonicMs, TaskGroup } from "@mcp-rt/config/util";
import type { Attempt } from "./attempt.js";
import type { ToolResult } from "./custom-tool.js";
import { createEmitter, type TypedEmitter } from "./event-emitter.js";
import { discoveryProblem, fileProblem, type MCPLoadProblem } from "./load-problem.js";
import { ManagerCache, openAuthStorage } from "./manager-cache.js";
import type {
  DiscoverAndConnectOptions,
  DiscoverAndReloadOptions,
  MCPConnectionStatus,
  MCPLoadResult,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPReloadOptions,
  MCPReloadResult,
  MCPServerState,
  MCPStartupMode,
} from "./manager-types.js";
import type { LiveServer, MCPTool, MCPToolHost } from "./mcp-tool.js";
import { DEFAULT_SERVER_TIMEOUT_MS, probeServer, type ServerProbe } from "./open-connection.js";
import { switchedOff } from "./reload-plan.js";
import {
  collectContent,
  type MCPPrompt,
  type MCPResource,
  type MCPResourceTemplate,
} from "./server-content.js";
import { ServerLifecycle } from "./server-lifecycle.js";
import { resolveServerLimits, type ServerLimits } from "./server-limits.js";
import { ServerReload } from "./server-reload.js";
import { ServerRequests } from "./server-requests.js";
import { ServerSignIn } from "./server-sign-in.js";
import { ServerTable } from "./server-table.js";
import { dropError } from "./server-upkeep.js";
import { passStartupGate, resolveStartupMode } from "./startup-gate.js";
import { ToolCatalog, type ToolOwner } from "./tool-catalog.js";

/** The startup gate of the design document (ms). */
export const STARTUP_TIMEOUT_MS = 250;

/**
 * Many MCP servers at once: connects them in parallel, returns after a short
 * startup gate with live tools, per-server errors and deferred tools from
 * the cache, finishes the rest in the background, follows connections that
 * drop, and closes everything it started. docs/architecture.md tells the
 * life of a server in it.
 *
 * @example
 * ```ts
 * await using manager = new MCPManager(process.cwd());
 * const { tools, problems } = await manager.discoverAndConnect();
 * manager.on("tools:changed", () => registry.refresh(manager.getTools()));
 * ```
 */
export class MCPManager implements AsyncDisposable {
  readonly #cwd: string;
  readonly #options: MCPManagerOptions;
  readonly #table = new ServerTable();
  readonly #catalog: ToolCatalog;
  readonly #lifecycle: ServerLifecycle;
  readonly #cache: ManagerCache;
  readonly #emitter: TypedEmitter<MCPManagerEvents>;
  readonly #tasks = new TaskGroup();
  readonly #limits: ServerLimits;
  readonly #startupMode: MCPStartupMode;
  readonly #authStorage: AuthStorage | undefined;
  readonly #ownsAuthStorage: boolean;
  readonly #reload: ServerReload;
  readonly #signIn: ServerSignIn;
  readonly #requests: ServerRequests;

  /**
   * @param cwd The project folder: where stdio servers run and what cache entries are keyed by.
   * @throws McpRtError `CONFIG_INVALID` naming the option, for a `reconnect`, health-check, limit or `startupMode` value out of range.
   */
  constructor(cwd: string, options: MCPManagerOptions = {}) {
    this.#cwd = cwd;
    this.#options = options;
    const limits = resolveServerLimits(options);
    this.#startupMode = resolveStartupMode(options.startupMode);
    this.#limits = limits;
    this.#cache = new ManagerCache(options.cache, options.logger);
    this.#ownsAuthStorage = typeof options.authStorage === "string";
    this.#authStorage = openAuthStorage(options.authStorage);
    this.#emitter = createEmitter<MCPManagerEvents>((error) =>
      options.logger?.warn("An MCPManager event listener threw", error),
    );
    const host: MCPToolHost = {
      resultCharLimit: limits.resultCharLimit,
      resultMediaByteLimit: limits.resultMediaByteLimit,
      liveServer: (server) => this.#liveServer(server),
      waitForConnection: async (server, signal) => {
        await this.waitForConnection(server, signal ? { signal } : {});
      },
      signInRequired: (server, error) => {
        const record = this.#table.get(server);
        if (record && McpRtError.isInstance(error)) this.#lifecycle.signInLost(record, error);
      },
    };
    this.#catalog = new ToolCatalog(this.#table, host);
    this.#lifecycle = new ServerLifecycle({
      cwd,
      options,
      limits,
      authStorage: this.#authStorage,
      table: this.#table,
      catalog: this.#catalog,
      cache: this.#cache,
      emitter: this.#emitter,
      tasks: this.#tasks,
    });
    this.#reload = new ServerReload({
      cwd,
      authStorage: this.#authStorage,
      options,
      table: this.#table,
      catalog: this.#catalog,
      lifecycle: this.#lifecycle,
      emitter: this.#emitter,
      connectServers: (configs, sources) => this.connectServers(configs, sources),
    });
    this.#signIn = new ServerSignIn({
      table: this.#table,
      lifecycle: this.#lifecycle,
      authStorage: this.#authStorage,
    });
    this.#requests = new ServerRequests({ table: this.#table, limits });
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends keyof MCPManagerEvents>(
    event: E,
    listener: (payload: MCPManagerEvents[E]) => void,
  ): () => void {
    return this.#emitter.on(event, listener);
  }

  /**
   * Discovers the server configs of `cwd` (`loadAllMCPConfigs`, or
   * `options.discover`) and connects them. Project-level servers start only
   * when `options.trust` approves the project (or is `"all"`); otherwise they
   * wait in `discovery.needsApproval`. Never throws for a broken file,
   * server or discovery: those come back in `problems` (a discovery that
   * threw is one problem of kind `discovery`, and nothing is connected).
   */
  async discoverAndConnect(options: DiscoverAndConnectOptions = {}): Promise<MCPLoadResult> {
    const { discover = loadAllMCPConfigs, ...loadOptions } = options;
    let discovery: Awaited<ReturnType<typeof discover>>;
    try {
      discovery = await discover(this.#cwd, loadOptions);
    } catch (error) {
      return { tools: [], errors: new Map(), connectedServers: [], problems: [discoveryProblem(error)] };
    }
    const result = await this.connectServers(discovery.configs, discovery.sources);
    return { ...result, problems: [...discovery.errors.map(fileProblem), ...result.problems], discovery };
  }

  /**
   * Connects every server not yet connected or connecting, in parallel, and
   * returns after the startup gate: live tools of servers that finished,
   * errors of those that failed, deferred tools (from the cache) of those
   * still pending; pending servers without a cache entry are waited for.
   * A server waiting for its next reconnect attempt, or given up by the
   * circuit breaker, is connected at once and its reconnect counts start over.
   * A server with `enabled: false` is only remembered with its source.
   */
  async connectServers(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta> = {},
  ): Promise<MCPLoadResult> {
    const startedAt = monotonicMs();
    const errors = new Map<string, McpRtError>();
    const names: string[] = [];
    const attempts = new Map<string, Attempt>();
    for (const [name, config] of Object.entries(configs)) {
      const source = sources[name];
      const enabled = !switchedOff(config);
      const running = this.#table.get(name);
      if (running?.active) {
        if (source) running.from(source);
        if (!enabled) continue;
        names.push(name);
        if (running.attempt && !running.attempt.outcome) attempts.set(name, running.attempt);
        continue;
      }
      const record = this.#table.ensure(name, config);
      if (source) record.from(source);
      if (!enabled) continue;
      names.push(name);
      const problems = validateServerConfig(name, config);
      if (problems.length > 0) {
        const error = new McpRtError(
          "CONFIG_INVALID",
          `MCP server "${name}" has an invalid config${source ? ` in ${source.path}` : ""}: ${problems.join("; ")}`,
          { server: name },
        );
        this.#lifecycle.fail(record, error);
        errors.set(name, error);
        continue;
      }
      attempts.set(name, this.#lifecycle.start(record, config));
    }

    const { maxStartupWaitMs } = this.#options;
    await passStartupGate([...attempts.values()], {
      startupTimeoutMs: this.#options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS,
      maxStartupWaitMs,
      mode: this.#startupMode,
      startedAt,
      defer: (offers) => this.#lifecycle.defer(offers),
      notWaitedFor: (late, reason) => this.#lifecycle.notWaitedFor(late, reason, maxStartupWaitMs ?? 0),
    });

    for (const [name, attempt] of attempts) {
      attempt.returned = true;
      if (attempt.outcome?.ok === false) errors.set(name, attempt.outcome.error);
      // Dropped after it connected: since then no other attempt started, or only automatic reconnects.
      const record = this.#table.get(name);
      const latest = record?.attempt;
      const dropped =
        record &&
        attempt.outcome?.ok &&
        !record.connection &&
        !attempt.controller.signal.aborted &&
        (latest === attempt || latest?.reconnect === true);
      if (dropped) errors.set(name, dropError(record));
    }
    const wanted = new Set(names);
    const cacheProblem = this.#cache.takeProblem();
    const serverProblems = [...errors].map(
      ([server, error]): MCPLoadProblem => ({ kind: "server", server, error }),
    );
    return {
      tools: this.#catalog.tools.filter((tool) => wanted.has(tool.serverName)),
      errors,
      connectedServers: names.filter((name) => this.#table.status(name) === "connected"),
      problems: cacheProblem ? [cacheProblem, ...serverProblems] : serverProblems,
    };
  }

  /**
   * Brings the running servers in line with `configs`, touching only what
   * changed: a new server is started, one no longer configured (or now
   * `enabled: false`) is stopped, one whose config changed is restarted, and
   * the others keep running (same process; calls in flight finish). A config
   * counts as changed when its fingerprint (the tool cache's: the unresolved
   * config and its folder) differs, or, for a config with `!cmd` values or an
   * API key, when resolving it again (the commands run again) gives other
   * values. The started and restarted servers pass the startup gate as in
   * `connectServers`. Emits `config:changed` when anything was added, removed
   * or restarted. Reloads run one at a time.
   *
   * @example
   * ```ts
   * const { restarted, errors } = await manager.reload(discovery.configs, discovery.sources);
   * ```
   */
  reload(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta> = {},
    options: MCPReloadOptions = {},
  ): Promise<MCPReloadResult> {
    return this.#reload.reload(configs, sources, options);
  }

  /**
   * Discovers again (like `discoverAndConnect`) and {@link MCPManager.reload}s
   * with what it found. A file that cannot be read or parsed (caught
   * mid-save), an invalid entry or a failed source keeps the servers it
   * defined running as they are; while a file is broken, servers that would
   * now wait for project approval keep running too. Never throws for a broken
   * file or a failed discovery: they come back in `problems` (after a failed
   * discovery nothing changes).
   */
  discoverAndReload(options: DiscoverAndReloadOptions = {}): Promise<MCPReloadResult> {
    return this.#reload.discoverAndReload(options);
  }

  /** The current MCP tools of every server: live, or deferred from the cache. */
  getTools(): MCPTool[] {
    return [...this.#catalog.tools];
  }

  /**
   * Every server's resources (`resources/list`): live, or from the cache
   * while a server is deferred. A server without the capability has none.
   */
  getResources(): MCPResource[] {
    return collectContent(this.#table.records(), "resources");
  }

  /** Every server's resource templates (`resources/templates/list`), live or cached. */
  getResourceTemplates(): MCPResourceTemplate[] {
    return collectContent(this.#table.records(), "resourceTemplates");
  }

  /** Every server's prompts (`prompts/list`), live or cached. */
  getPrompts(): MCPPrompt[] {
    return collectContent(this.#table.records(), "prompts");
  }

  /**
   * Reads a resource of `server` (`resources/read`; any URI, listed or made
   * from a template). A server still connecting (deferred) is waited for,
   * like a deferred tool. Rejects with an `McpRtError` (`UNKNOWN_SERVER`,
   * `NOT_CONNECTED`, `PROTOCOL_ERROR` for a URI the server does not know,
   * `LIMIT_EXCEEDED` past `maxMessageBytes`, …), or an `AbortError`.
   */
  readResource(
    server: string,
    uri: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<MCPResourceContents> {
    return this.#requests.readResource(server, uri, options);
  }

  /**
   * Reads a resource as a tool result: what a model (a resource tool) or an
   * `@server:uri` attachment gets. Text is inline, binary content a note
   * with its size and MIME type, and the whole goes through the same budget
   * as tool results (`resultCharLimit`). A failure is `MCP error: …`
   * content; only an abort rejects.
   */
  readResourceResult(
    server: string,
    uri: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<ToolResult> {
    return this.#requests.readResourceResult(server, uri, options);
  }

  /**
   * Gets a prompt of `server` with its arguments (`prompts/get`): the
   * messages to put into the conversation. Waits for a deferred server;
   * rejects like {@link MCPManager.readResource}.
   */
  getPrompt(
    server: string,
    name: string,
    args: Record<string, string> = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<MCPPromptResult> {
    return this.#requests.getPrompt(server, name, args, options);
  }

  /**
   * Follows a resource: the server sends `notifications/resources/updated`,
   * which the manager emits as `resource:updated`. Kept across reconnects
   * (subscribed again). Rejects with `PROTOCOL_ERROR` for a server without
   * `resources.subscribe`.
   */
  subscribeResource(server: string, uri: string): Promise<void> {
    return this.#requests.subscribeResource(server, uri);
  }

  /** Stops following a resource (see {@link MCPManager.subscribeResource}). */
  unsubscribeResource(server: string, uri: string): Promise<void> {
    return this.#requests.unsubscribeResource(server, uri);
  }

  /** Which server and original tool an exposed name stands for. */
  getToolOwner(exposedName: string): ToolOwner | undefined {
    return this.#catalog.owner(exposedName);
  }

  /** `connected`, `connecting` (handshake or first tool list under way), else `disconnected`. */
  getConnectionStatus(name: string): MCPConnectionStatus {
    return this.#table.status(name);
  }

  /** Every known server with its status, tool count, timing and last error, for a UI. */
  getServerStates(): MCPServerState[] {
    return this.#table.states();
  }

  /**
   * Resolves with the server's connection once it is connected and its tools
   * are listed. Rejects with an `McpRtError` right away for an unknown server
   * (`UNKNOWN_SERVER`), a failed one (its failure) or one that is not
   * connecting (`NOT_CONNECTED`, also while a dropped server waits for its
   * next reconnect attempt); waits at most the server's `timeout`
   * (`CONNECT_TIMEOUT`); rejects with an `AbortError` when `signal` aborts.
   */
  waitForConnection(name: string, options: { signal?: AbortSignal } = {}): Promise<MCPServerConnection> {
    return this.#requests.waitForConnection(name, options);
  }

  /**
   * Tests a server on a connection of its own (the manager's connection to
   * it, if any, is not touched): connects with `config`, lists its tools,
   * closes. Rejects with an `McpRtError` saying what failed (with the
   * server's stderr tail when it has one).
   */
  async testServer(
    name: string,
    config: MCPServerConfig,
    options: { signal?: AbortSignal; timeoutMs?: number; sourcePath?: string } = {},
  ): Promise<ServerProbe> {
    // The connect and the list each have the time limit: their errors say which step timed out.
    const timeoutMs = options.timeoutMs ?? config.timeout ?? DEFAULT_SERVER_TIMEOUT_MS;
    return probeServer(name, config, {
      cwd: this.#cwd,
      signal: options.signal ?? new AbortController().signal,
      timeoutMs,
      authStorage: this.#authStorage,
      sourcePath: options.sourcePath,
      maxMessageBytes: this.#limits.maxMessageBytes,
      toolLimits: this.#limits.toolLimits,
    });
  }

  /**
   * Signs a remote server in through the browser (`openUrl`) and connects it:
   * discovery of its authorization server, client registration (or the
   * configured client), PKCE, the loopback callback, tokens kept in
   * `authStorage`. Resolves once it is connected with its tools listed (at
   * once when it already is); rejects with an `McpRtError` saying what failed,
   * or an `AbortError` when `signal` aborts. The sign-in has its own time
   * limit (`signInTimeoutMs`), outside the server's `timeout`.
   */
  login(name: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#signIn.login(name, options.signal);
  }

  /**
   * Signs a remote server out: deletes its stored tokens and client
   * registration, closes its connection, and leaves it `needs-auth`. Resolves
   * with whether a sign-in was stored. (Tokens are not revoked at the
   * authorization server.)
   */
  logout(name: string): Promise<boolean> {
    return this.#signIn.logout(name);
  }

  /**
   * Stores the API key of a server configured with `auth: { type: "apikey",
   * credentialId }` in `authStorage` under its `credentialId`, then starts the
   * server again with it. Resolves once the key is stored and the server is
   * starting (follow it with `waitForConnection`). Rejects with
   * `CONFIG_INVALID` for a server that takes no key or an empty key.
   */
  setApiKey(name: string, key: string): Promise<void> {
    return this.#signIn.setApiKey(name, key);
  }

  /**
   * What `authStorage` holds about a remote server's sign-in (never a token):
   * who it is for, the authorization server, scope, expiry. `undefined` for a
   * local server, one never signed in, or a manager without `authStorage`.
   */
  signInStatus(name: string): Promise<SignInStatus | undefined> {
    return this.#signIn.status(name);
  }

  /**
   * Stops one server: calls off its attempt or reconnect, closes its
   * connection, forgets its source, and drops exactly its tools.
   */
  async disconnectServer(name: string): Promise<void> {
    const record = this.#table.get(name);
    if (record) await this.#lifecycle.stop(record);
  }

  /**
   * Stops every server (closing every connection), and waits for the
   * background work still running (cache writes, closes under way).
   */
  async disconnectAll(): Promise<void> {
    this.#lifecycle.stopAll();
    await this.#tasks.idle();
  }

  /**
   * Disconnects everything, then closes the tool cache and the auth store if
   * the manager made them (the default cache, or either opened from a URL). The manager can be used
   * again afterwards: a default cache is made again on first use.
   */
  async close(): Promise<void> {
    await this.disconnectAll();
    await this.#cache.close();
    if (this.#ownsAuthStorage) await this.#authStorage?.close?.();
  }

  /** The same as {@link MCPManager.close}, for `await using manager = new MCPManager(cwd)`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** A server as a tool sees it when it is called: live, connecting, or why it cannot be used. */
  #liveServer(server: string): LiveServer {
    const record = this.#table.get(server);
    if (!record) return { error: `server "${server}" disconnected: it was removed from this session` };
    // A connected server's definitions are always its live ones (the cached ones only stand in before).
    if (record.connection) return { connection: record.connection, toolNames: record.toolNames };
    // A call to a server that dropped fails fast, even during a reconnect attempt: a model should not stall on it.
    if (record.reconnecting) return { error: record.unavailable() };
    if (record.active) return { pending: true };
    return { error: record.unavailable() };
  }
}
