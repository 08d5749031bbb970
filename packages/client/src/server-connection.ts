import { isStdioConfig, type MCPServerConfig, McpRtError, redactConfigText } from "@mcp-rt/config";
import type { Client } from "@modelcontextprotocol/client";
import { authContextOf, localUser } from "./auth-context.js";
import { type ClientTransport, stderrOf } from "./client-transport.js";
import type {
  ConnectionInternals,
  MCPConnectionCloseEvent,
  MCPServerCapabilities,
  MCPServerConnection,
  MCPServerInfo,
} from "./connection.js";
import type { MCPEra, MCPEraDecision, MCPEraVerdict } from "./era.js";
import { describeExit, errnoOf, withoutSecrets, withStderr } from "./error-text.js";
import type { MCPListCacheHint } from "./list-cache-hint.js";
import { ListenStream } from "./listen-stream.js";
import { withPassedThrough } from "./stdio/server-process.js";

/** What a {@link ServerConnection} is made from. */
export interface ServerConnectionInit {
  name: string;
  config: MCPServerConfig;
  /** The config connected with, when `config` is its unresolved form. @default config */
  resolvedConfig?: MCPServerConfig;
  client: Client;
  transport: ClientTransport;
  sourcePath: string | undefined;
  /** Who the agent acts for (`ConnectOptions.user`). @default localUser() */
  user?: string | undefined;
  /** The environment a stdio server inherits from (`ConnectOptions.env`). @default process.env */
  parentEnv?: Record<string, string | undefined> | undefined;
}

/**
 * The one implementation of {@link MCPServerConnection}. It is created before
 * `initialize` so that no close, error or list-changed notification is missed,
 * and filled in once the handshake has succeeded.
 */
export class ServerConnection implements MCPServerConnection {
  readonly name: string;
  readonly config: MCPServerConfig;
  readonly #client: Client;
  readonly #transport: ClientTransport;
  /** What the server runs with (who it connects as is a digest of it). */
  readonly #resolvedConfig: MCPServerConfig;
  /** What the server runs with, its passed-through environment included: its secrets never show in a stderr tail or an error. */
  readonly #scrubWith: MCPServerConfig;
  readonly #closeListeners = new Set<(event: MCPConnectionCloseEvent) => void>();
  readonly #errorListeners = new Set<(error: McpRtError) => void>();
  readonly #toolsListeners = new Set<() => void>();
  readonly #listListeners = new Set<(list: "resources" | "prompts") => void>();
  readonly #updateListeners = new Set<(uri: string) => void>();
  #closeEvent: MCPConnectionCloseEvent | undefined;
  #closing: Promise<void> | undefined;
  #listen: ListenStream | undefined;
  #eraDecision: MCPEraDecision = { how: "setting", text: "the legacy era (initialize)" };
  #decidedAt = Date.now();
  #principal: () => string | undefined = () => undefined;
  #authContext: string | undefined;
  readonly #user: string;
  readonly #parentEnv: Record<string, string | undefined> | undefined;
  readonly #internals: ConnectionInternals;

  constructor(init: ServerConnectionInit) {
    this.name = init.name;
    this.config = init.config;
    this.#client = init.client;
    this.#transport = init.transport;
    this.#resolvedConfig = init.resolvedConfig ?? init.config;
    this.#scrubWith = isStdioConfig(this.#resolvedConfig)
      ? withPassedThrough(this.#resolvedConfig, init.parentEnv)
      : this.#resolvedConfig;
    this.#user = init.user ?? localUser();
    this.#parentEnv = init.parentEnv;
    this.#internals = {
      resolvedConfig: this.#scrubWith,
      client: init.client,
      transport: init.transport,
      sourcePath: init.sourcePath,
      paramHeaders: new Map(),
      toolsHint: undefined,
      contentScope: undefined,
      close: () => this.#close(),
      listen: () => this.#listen,
      closeEvent: () => this.#closeEvent,
    };
    // Our own close reports through the close it awaits (`#close`); an unexpected one through this.
    init.client.onclose = () => this.handleClose();
    init.client.onerror = (error) => this.handleError(error);
    const client = init.client;
    client.setNotificationHandler("notifications/tools/list_changed", () => this.#toolsChanged());
    client.setNotificationHandler("notifications/resources/list_changed", () =>
      this.#listChanged("resources"),
    );
    client.setNotificationHandler("notifications/prompts/list_changed", () => this.#listChanged("prompts"));
    client.setNotificationHandler("notifications/resources/updated", (notification) =>
      this.#resourceUpdated(notification.params.uri),
    );
  }

  /** The internals of a connection made by this package; throws a TypeError for anything else. */
  static internalsOf(connection: MCPServerConnection): ConnectionInternals {
    if (!(#internals in connection)) {
      throw new TypeError("Not an MCPServerConnection returned by connectToServer()");
    }
    return connection.#internals;
  }

  get authContext(): string {
    this.#authContext ??= authContextOf({
      user: this.#user,
      written: this.config,
      resolved: this.#resolvedConfig,
      parentEnv: this.#parentEnv,
      principal: this.#principal(),
    });
    return this.#authContext;
  }

  get toolsCacheHint(): MCPListCacheHint | undefined {
    return this.#internals.toolsHint;
  }

  get cacheScope(): "public" | "private" | undefined {
    const scopes = [this.#internals.toolsHint?.cacheScope, this.#internals.contentScope];
    if (scopes.includes("private")) return "private";
    return scopes.includes("public") ? "public" : undefined;
  }

  /** Where the OAuth sign-in the connection authenticates with is read from, for {@link authContext}. */
  usePrincipal(principal: () => string | undefined): void {
    this.#principal = principal;
    this.#authContext = undefined;
  }

  get transport(): "stdio" | "http" | "sse" {
    return this.#transport.kind;
  }

  get serverInfo(): MCPServerInfo {
    return this.#client.getServerVersion() ?? { name: this.name, version: "unknown" };
  }

  get capabilities(): MCPServerCapabilities {
    return this.#client.getServerCapabilities() ?? {};
  }

  get instructions(): string | undefined {
    return this.#client.getInstructions();
  }

  get protocolVersion(): string | undefined {
    return this.#client.getNegotiatedProtocolVersion() ?? this.#transport.protocolVersion;
  }

  get era(): MCPEra {
    return this.#client.getProtocolEra() ?? "legacy";
  }

  get eraDecision(): MCPEraDecision {
    return this.#eraDecision;
  }

  get eraVerdict(): MCPEraVerdict {
    const discover = this.#client.getDiscoverResult() as Record<string, unknown> | undefined;
    return {
      era: this.era,
      protocolVersion: this.protocolVersion ?? "unknown",
      ...(this.era === "modern" && discover ? { discover } : {}),
      decidedAt: this.#decidedAt,
    };
  }

  /**
   * On a 2026-07-28 connection: opens the `subscriptions/listen` stream that
   * carries list changes and resource updates (in the background: a refusal
   * reaches `onError`, the connection stays).
   */
  startListening(timeoutMs: number): void {
    if (this.era !== "modern" || this.#listen || this.closed) return;
    this.#listen = new ListenStream({
      name: this.name,
      client: this.#client,
      capabilities: this.capabilities,
      timeoutMs,
      onProblem: (error) => this.handleError(error),
    });
    void this.#listen.start();
  }

  /** Records how the era was decided, and when (an adopted verdict keeps its own date). */
  settleEra(decision: MCPEraDecision, decidedAt: number = Date.now()): void {
    this.#eraDecision = decision;
    this.#decidedAt = decidedAt;
  }

  get pid(): number | undefined {
    return this.#transport.kind === "stdio" ? this.#transport.pid : undefined;
  }

  get closed(): boolean {
    return this.#closeEvent !== undefined;
  }

  stderrTail(): string {
    const tail = stderrOf(this.#transport, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
    return tail === undefined
      ? ""
      : redactConfigText(tail, { config: this.#scrubWith, written: this.config, server: this.name });
  }

  onClose(listener: (event: MCPConnectionCloseEvent) => void): () => void {
    const event = this.#closeEvent;
    if (event) {
      let cancelled = false;
      queueMicrotask(() => {
        if (!cancelled) safely(() => listener(event));
      });
      return () => {
        cancelled = true;
      };
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  onError(listener: (error: McpRtError) => void): () => void {
    this.#errorListeners.add(listener);
    return () => this.#errorListeners.delete(listener);
  }

  onToolsChanged(listener: () => void): () => void {
    this.#toolsListeners.add(listener);
    return () => this.#toolsListeners.delete(listener);
  }

  onListChanged(listener: (list: "resources" | "prompts") => void): () => void {
    this.#listListeners.add(listener);
    return () => this.#listListeners.delete(listener);
  }

  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  }

  #listChanged(list: "resources" | "prompts"): void {
    for (const listener of [...this.#listListeners]) safely(() => listener(list));
  }

  #resourceUpdated(uri: string): void {
    for (const listener of [...this.#updateListeners]) safely(() => listener(uri));
  }

  /** Builds the close event and tells the listeners, once: after `#close`, or when the server went away. */
  handleClose(): void {
    if (this.#closeEvent) return;
    const transport = this.#transport;
    const exit = transport.kind === "stdio" ? transport.exit : undefined;
    let event: MCPConnectionCloseEvent;
    if (this.#closing) {
      event = { expected: true, reason: `MCP server "${this.name}" was closed by the client` };
    } else {
      // A transport that closed itself knows why better than the exit its close caused.
      const how = transport.closeReason ?? (exit ? describeExit(exit) : "the server closed the connection");
      const reason = `MCP server "${this.name}" stopped: ${how}`;
      const stderrTail = stderrOf(transport);
      const details = exit ? { exitCode: exit.code, signal: exit.signal } : transport.closeDetails;
      const code =
        transport.kind === "stdio" && transport.limitBreach ? "LIMIT_EXCEEDED" : "TRANSPORT_CLOSED";
      event = {
        expected: false,
        reason,
        error: withoutSecrets(
          new McpRtError(code, withStderr(reason, stderrTail), {
            server: this.name,
            ...(stderrTail ? { stderrTail } : {}),
            details,
          }),
          { config: this.#scrubWith, written: this.config },
        ),
      };
    }
    if (exit) event.exit = exit;
    this.#closeEvent = event;
    const listeners = [...this.#closeListeners];
    this.#closeListeners.clear();
    for (const listener of listeners) safely(() => listener(event));
  }

  /** Wired to the SDK client's `onerror`. */
  handleError(error: Error): void {
    if (this.#errorListeners.size === 0) return;
    const errno = errnoOf(error);
    // Remote transports already say what went wrong, with the HTTP status.
    const wrapped = McpRtError.isInstance(error)
      ? error
      : new McpRtError(
          errno !== undefined ? "TRANSPORT_CLOSED" : "PROTOCOL_ERROR",
          `MCP server "${this.name}": ${error.message}`,
          { server: this.name, cause: error },
        );
    for (const listener of [...this.#errorListeners]) safely(() => listener(wrapped));
  }

  #toolsChanged(): void {
    for (const listener of [...this.#toolsListeners]) safely(() => listener());
  }

  #close(): Promise<void> {
    if (this.#closing) return this.#closing;
    void this.#listen?.close();
    // Reported once the transport has closed, from here: the SDK's close callback would only say the same.
    delete this.#client.onclose;
    this.#closing = this.#transport.close().finally(() => this.handleClose());
    return this.#closing;
  }
}

/** The internals of a connection made by this package; throws a TypeError for anything else. */
export function getConnectionInternals(connection: MCPServerConnection): ConnectionInternals {
  return ServerConnection.internalsOf(connection);
}

/**
 * Closes a connection: a stdio server's stdin ends, and its whole process
 * group gets SIGTERM after a short grace and SIGKILL after another; resolves
 * once no process of the group runs. A Streamable HTTP session is ended with
 * an HTTP `DELETE` first (a 405 answer is fine; at most 2 s), then every open
 * request and stream is aborted. Idempotent: every call returns the same
 * promise, also after the server went away on its own.
 */
export function closeConnection(connection: MCPServerConnection): Promise<void> {
  return ServerConnection.internalsOf(connection).close();
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A throwing listener must not break the connection or the other listeners.
  }
}
