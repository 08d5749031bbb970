import type { MCPServerConfig, McpRtError } from "@mcp-rt/config";
import type { Client, Implementation, ServerCapabilities } from "@modelcontextprotocol/client";
import type { ClientTransport, ProcessExit } from "./client-transport.js";
import type { MCPEra, MCPEraDecision, MCPEraVerdict } from "./era.js";
import type { MCPListCacheHint } from "./list-cache-hint.js";
import type { ListenStream } from "./listen-stream.js";
import type { ParamHeaderDeclaration } from "./remote/mcp-param-headers.js";

/** The server's name and version, as it reported them at `initialize`. */
export type MCPServerInfo = Implementation;

/** What the server said it supports at `initialize` (`tools`, `resources`, …). */
export type MCPServerCapabilities = ServerCapabilities;

/** Why a connection closed; passed to `onClose` listeners. */
export interface MCPConnectionCloseEvent {
  /** True when `closeConnection` closed it; false when the server went away. */
  expected: boolean;
  /** One sentence for logs and UIs, e.g. `MCP server "x" exited: process exited with code 1`. */
  reason: string;
  /** How the server process ended (stdio), when it did. */
  exit?: ProcessExit;
  /** For an unexpected close: a `TRANSPORT_CLOSED` error carrying the stderr tail. */
  error?: McpRtError;
}

/**
 * One live connection to one MCP server, as `connectToServer` returns it. Use
 * it with `listTools`, `callTool` and `closeConnection`.
 */
export interface MCPServerConnection {
  /** The server's name in the config. */
  readonly name: string;
  /** The config as the caller gave it (unresolved: no secrets from `!cmd` or auth). */
  readonly config: MCPServerConfig;
  /** How the server is reached. */
  readonly transport: "stdio" | "http" | "sse";
  /** The server's name and version. */
  readonly serverInfo: MCPServerInfo;
  /** What the server supports. */
  readonly capabilities: MCPServerCapabilities;
  /** The server's usage hints for the model, if it sent any. */
  readonly instructions?: string | undefined;
  /** The protocol revision agreed (at `initialize`, or through `server/discover`). */
  readonly protocolVersion?: string | undefined;
  /** The era the connection speaks: `"modern"` (2026-07-28) or `"legacy"` (`initialize`). */
  readonly era: MCPEra;
  /** How the era was decided. */
  readonly eraDecision: MCPEraDecision;
  /** What to keep for the next connect (`ConnectOptions.prior`): the era, the version, the discover result, when. */
  readonly eraVerdict: MCPEraVerdict;
  /**
   * Who the connection authenticates as, as a SHA-256 (hex) of who asks (the
   * user and host, `ConnectOptions.user`) and of every value the server gets
   * that its unresolved config does not fix (`!command` outputs, API keys,
   * inherited credentials, the OAuth principal; `authContextOf`), never a
   * secret. A list marked `cacheScope: "private"` is cached per value of this.
   */
  readonly authContext: string;
  /** The caching hints (SEP-2549) of the last complete `listTools` on this 2026-07-28 connection; `undefined` before one, and on a legacy connection. */
  readonly toolsCacheHint: MCPListCacheHint | undefined;
  /**
   * The strictest `cacheScope` (SEP-2549) of the lists made on this
   * 2026-07-28 connection (tools, resources, resource templates, prompts):
   * `"private"` when any page was; `undefined` before any list, and on a
   * legacy connection.
   */
  readonly cacheScope: "public" | "private" | undefined;
  /** The server's process id, which is also its process group id (stdio). */
  readonly pid?: number | undefined;
  /** True once the connection has closed, for whatever reason. */
  readonly closed: boolean;
  /** The last lines the server wrote to stderr ("" for none or for remote servers), with the secrets of its config hidden. */
  stderrTail(): string;
  /**
   * Calls `listener` once when the connection closes. Subscribing after it has
   * closed still calls it (asynchronously). Returns an unsubscribe function.
   */
  onClose(listener: (event: MCPConnectionCloseEvent) => void): () => void;
  /** Calls `listener` on out-of-band problems (stdout noise, pipe errors). Returns an unsubscribe function. */
  onError(listener: (error: McpRtError) => void): () => void;
  /** Calls `listener` when the server sends `notifications/tools/list_changed`. Returns an unsubscribe function. */
  onToolsChanged(listener: () => void): () => void;
  /** Calls `listener` on `notifications/resources/list_changed` (`"resources"`) and `notifications/prompts/list_changed` (`"prompts"`). Returns an unsubscribe function. */
  onListChanged(listener: (list: "resources" | "prompts") => void): () => void;
  /** Calls `listener` with the URI of each `notifications/resources/updated` (see `subscribeResource`). Returns an unsubscribe function. */
  onResourceUpdated(listener: (uri: string) => void): () => void;
}

/** What the package's own functions reach behind a connection; never exported. */
export interface ConnectionInternals {
  /** The config connected with (resolved: it may hold `!cmd` outputs and keys, and a stdio server's passed-through environment), to hide them in messages. */
  resolvedConfig: MCPServerConfig;
  client: Client;
  transport: ClientTransport;
  sourcePath: string | undefined;
  /** By tool name, the arguments a modern HTTP server asked to see as `Mcp-Param-*` headers (set by `listTools`). */
  paramHeaders: Map<string, readonly ParamHeaderDeclaration[]>;
  /** The caching hints of the last complete `listTools` (set by it). */
  toolsHint: MCPListCacheHint | undefined;
  /** The strictest `cacheScope` of the resource, template and prompt pages listed (2026-07-28), once one was. */
  contentScope: "public" | "private" | undefined;
  /** Closes (idempotent); resolves once the server (and its process group) is gone. */
  close(): Promise<void>;
  /** The `subscriptions/listen` stream of a 2026-07-28 connection, once opened. */
  listen(): ListenStream | undefined;
  /** Why it closed, once it has. */
  closeEvent(): MCPConnectionCloseEvent | undefined;
}
