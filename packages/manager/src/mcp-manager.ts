import type { MCPPromptResult, MCPResourceContents, MCPServerConnection, SignInStatus } from "@mcp-rt/client";
import type { AuthStorage, MCPServerConfig, SourceMeta } from "@mcp-rt/config";
import type { MCPToolReview } from "./approvals/tool-review.js";
import { Fleet } from "./fleet/fleet.js";
import type { MCPLoadResult, MCPReloadResult } from "./fleet/load-result.js";
import { ManagerCache, openAuthStorage } from "./manager-cache.js";
import type {
  DiscoverAndConnectOptions,
  DiscoverAndReloadOptions,
  MCPConnectionStatus,
  MCPGetPromptOptions,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPReadResourceOptions,
  MCPReloadOptions,
  MCPRequestOptions,
  MCPServerState,
  MCPTestServerOptions,
} from "./manager-types.js";
import type { ServerProbe } from "./server/probe-server.js";
import type { MCPPrompt, MCPResource, MCPResourceTemplate } from "./server/server-content.js";
import type { ServerSupervisor } from "./server/server-supervisor.js";
import type { ToolResult } from "./tools/custom-tool.js";
import type { MCPTool } from "./tools/mcp-tool.js";
import type { ToolOwner } from "./tools/tool-catalog.js";

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
  readonly #fleet: Fleet;
  /** The tool cache: closed by `close` when the manager made it. */
  readonly #cache: ManagerCache;
  /** The auth store: closed by `close` when the manager opened it (from a path or URL). */
  readonly #authStorage: AuthStorage | undefined;
  readonly #ownsAuthStorage: boolean;

  /**
   * @param cwd The project folder: where stdio servers run and what cache entries are keyed by.
   * @throws McpRtError `CONFIG_INVALID` naming the option, for a `reconnect`, health-check, limit or `startupMode` value out of range.
   */
  constructor(cwd: string, options: MCPManagerOptions = {}) {
    this.#cache = new ManagerCache(options.cache, options.logger);
    this.#ownsAuthStorage = typeof options.authStorage === "string";
    this.#authStorage = openAuthStorage(options.authStorage);
    this.#fleet = new Fleet({ cwd, options, cache: this.#cache, authStorage: this.#authStorage });
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends keyof MCPManagerEvents>(
    event: E,
    listener: (payload: MCPManagerEvents[E]) => void,
  ): () => void {
    return this.#fleet.emitter.on(event, listener);
  }

  /**
   * Discovers the server configs of `cwd` (`loadAllMCPConfigs`, or
   * `options.discover`) and connects them. Project-level servers start only
   * when `options.trust` approves the project (or is `"all"`); otherwise they
   * wait in `discovery.needsApproval`. Never throws for a broken file,
   * server or discovery: those come back in `problems` (a discovery that
   * threw is one problem of kind `discovery`, and nothing is connected).
   */
  discoverAndConnect(options: DiscoverAndConnectOptions = {}): Promise<MCPLoadResult> {
    return this.#fleet.discoverAndConnect(options);
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
  connectServers(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta> = {},
  ): Promise<MCPLoadResult> {
    return this.#fleet.connectServers(configs, sources);
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
   * const { configs, sources } = discovery;
   * const { restarted, errors } = await manager.reload({ configs, sources });
   * ```
   */
  reload(options: MCPReloadOptions): Promise<MCPReloadResult> {
    return this.#fleet.reload(options);
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
    return this.#fleet.discoverAndReload(options);
  }

  /** The current MCP tools of every server: live, or deferred from the cache. */
  getTools(): MCPTool[] {
    return [...this.#fleet.catalog.tools];
  }

  /**
   * Every server's resources (`resources/list`): live, or from the cache
   * while a server is deferred. A server without the capability has none.
   */
  getResources(): MCPResource[] {
    return this.#fleet.content("resources");
  }

  /** Every server's resource templates (`resources/templates/list`), live or cached. */
  getResourceTemplates(): MCPResourceTemplate[] {
    return this.#fleet.content("resourceTemplates");
  }

  /** Every server's prompts (`prompts/list`), live or cached. */
  getPrompts(): MCPPrompt[] {
    return this.#fleet.content("prompts");
  }

  /**
   * Reads a resource of `server` (`resources/read`; any URI, listed or made
   * from a template). A server still connecting (deferred) is waited for,
   * like a deferred tool. Rejects with an `McpRtError` (`UNKNOWN_SERVER`,
   * `NOT_CONNECTED`, `PROTOCOL_ERROR` for a URI the server does not know,
   * `LIMIT_EXCEEDED` past `maxMessageBytes`, …), or an `AbortError`.
   */
  readResource(options: MCPReadResourceOptions): Promise<MCPResourceContents> {
    return this.#fleet.table.readResource(options);
  }

  /**
   * Reads a resource as a tool result: what a model (a resource tool) or an
   * `@server:uri` attachment gets. Text is inline, binary content a note
   * with its size and MIME type, and the whole goes through the same budget
   * as tool results (`resultCharLimit`). A failure is `MCP error: …`
   * content; only an abort rejects.
   */
  readResourceResult(options: MCPReadResourceOptions): Promise<ToolResult> {
    return this.#fleet.table.readResourceResult(options);
  }

  /**
   * Gets a prompt of `server` with its arguments (`prompts/get`): the
   * messages to put into the conversation. Waits for a deferred server;
   * rejects like {@link MCPManager.readResource}.
   */
  getPrompt(options: MCPGetPromptOptions): Promise<MCPPromptResult> {
    return this.#fleet.table.getPrompt(options);
  }

  /**
   * Follows a resource: the server sends `notifications/resources/updated`,
   * which the manager emits as `resource:updated`. Kept across reconnects
   * (subscribed again). Rejects with `PROTOCOL_ERROR` for a server without
   * `resources.subscribe`.
   */
  subscribeResource(server: string, uri: string): Promise<void> {
    return this.#fleet.table.subscribeResource(server, uri);
  }

  /** Stops following a resource (see {@link MCPManager.subscribeResource}). */
  unsubscribeResource(server: string, uri: string): Promise<void> {
    return this.#fleet.table.unsubscribeResource(server, uri);
  }

  /** Which server and original tool an exposed name stands for. */
  getToolOwner(exposedName: string): ToolOwner | undefined {
    return this.#fleet.catalog.owner(exposedName);
  }

  /** `connected`, `connecting` (handshake or first tool list under way), else `disconnected`. */
  getConnectionStatus(name: string): MCPConnectionStatus {
    return this.#fleet.table.status(name);
  }

  /** Every known server with its status, tool count, timing and last error, for a UI. */
  getServerStates(): MCPServerState[] {
    return this.#fleet.table.states();
  }

  /**
   * Resolves with the server's connection once it is connected and its tools
   * are listed. Rejects with an `McpRtError` right away for an unknown server
   * (`UNKNOWN_SERVER`), a failed one (its failure) or one that is not
   * connecting (`NOT_CONNECTED`, also while a dropped server waits for its
   * next reconnect attempt); waits at most the server's `timeout`
   * (`CONNECT_TIMEOUT`); rejects with an `AbortError` when `signal` aborts.
   */
  waitForConnection(name: string, options: MCPRequestOptions = {}): Promise<MCPServerConnection> {
    return this.#fleet.table.waitForConnection(name, options);
  }

  /**
   * Tests a server on a connection of its own (the manager's connection to
   * it, if any, is not touched): connects with `config`, lists its tools,
   * closes. Rejects with an `McpRtError` saying what failed (with the
   * server's stderr tail when it has one).
   */
  testServer(options: MCPTestServerOptions): Promise<ServerProbe> {
    return this.#fleet.testServer(options);
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
  login(name: string, options: MCPRequestOptions = {}): Promise<void> {
    return this.#fleet.signIn.login(name, options.signal);
  }

  /**
   * Signs a remote server out: deletes its stored tokens and client
   * registration, closes its connection, and leaves it `needs-auth`. Resolves
   * with whether a sign-in was stored. (Tokens are not revoked at the
   * authorization server.)
   */
  logout(name: string): Promise<boolean> {
    return this.#fleet.signIn.logout(name);
  }

  /**
   * Stores the API key of a server configured with `auth: { type: "apikey",
   * credentialId }` in `authStorage` under its `credentialId`, then starts the
   * server again with it. Resolves once the key is stored and the server is
   * starting (follow it with `waitForConnection`). Rejects with
   * `CONFIG_INVALID` for a server that takes no key or an empty key.
   */
  setApiKey(name: string, key: string): Promise<void> {
    return this.#fleet.signIn.setApiKey(name, key);
  }

  /**
   * What `authStorage` holds about a remote server's sign-in (never a token):
   * who it is for, the authorization server, scope, expiry. `undefined` for a
   * local server, one never signed in, or a manager without `authStorage`.
   */
  signInStatus(name: string): Promise<SignInStatus | undefined> {
    return this.#fleet.signIn.status(name);
  }

  /**
   * What the user reviews before approving a server's held tools: each held
   * tool with why it is held, what the poisoning check found, and its diff
   * against the definition approved before (description words, schema
   * paths, annotations); what changed of the server itself; and every sign
   * of poisoning in what it offers now. Rejects with `UNKNOWN_SERVER`.
   */
  reviewTools(name: string): Promise<MCPToolReview> {
    return this.#server(name).then((server) => server.review());
  }

  /**
   * Approves the held tools of a server named in `tools` (every held one when
   * absent): they are recorded in `approvals` as they are now, exposed, and
   * `tools:changed` is emitted. Resolves with the names approved. Rejects
   * with `UNKNOWN_SERVER`, `TOOL_NOT_FOUND` (a name that is not held), or the
   * store's error when it cannot be written (nothing is approved then).
   */
  approveTools(name: string, tools?: readonly string[]): Promise<string[]> {
    return this.#server(name).then((server) => server.approveHeld(tools));
  }

  /**
   * Keeps holding the held tools of a server named in `tools` (every held one
   * when absent), as they are now: recorded, they are held again without a
   * new `tools:held` until they change. Resolves with their names; rejects
   * like {@link MCPManager.approveTools}.
   */
  holdTools(name: string, tools?: readonly string[]): Promise<string[]> {
    return this.#server(name).then((server) => server.keepHeld(tools));
  }

  /** The supervisor of `name`, or `UNKNOWN_SERVER` naming the known ones. */
  async #server(name: string): Promise<ServerSupervisor> {
    const server = this.#fleet.table.get(name);
    if (!server) throw this.#fleet.table.unknown(name);
    return server;
  }

  /**
   * Stops one server: calls off its attempt or reconnect, closes its
   * connection, forgets its source, and drops exactly its tools.
   */
  disconnectServer(name: string): Promise<void> {
    return this.#fleet.stop(name);
  }

  /**
   * Stops every server (closing every connection), and waits for the
   * background work still running (cache writes, closes under way).
   */
  async disconnectAll(): Promise<void> {
    this.#fleet.stopAll();
    await this.#fleet.idle();
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
}
