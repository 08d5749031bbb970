import { closeConnection, connectToServer, listTools, type MCPServerConnection } from "@mcp-rt/client";
import {
  type AuthStorage,
  type MCPServerConfig,
  type MCPToolDefinition,
  McpRtError,
  resolveServerConfig,
} from "@mcp-rt/config";
import { abortable } from "./abortable.js";

/** A server's connect + `tools/list` limit when its config sets no `timeout`. */
export const DEFAULT_SERVER_TIMEOUT_MS = 30_000;

/** A connected server and the tools it listed. */
export interface ConnectedServer {
  connection: MCPServerConnection;
  serverTools: MCPToolDefinition[];
}

/** Options of {@link connectAndList}. */
export interface ConnectAndListOptions {
  /** The agent's folder: where stdio servers start. */
  cwd: string;
  /** Stops the attempt: whatever was started is closed, and the promise rejects with `signal.reason`. */
  signal: AbortSignal;
  /** Secrets for `auth: { type: "apikey" }`. */
  authStorage?: AuthStorage;
  /** The config file, for error messages. */
  sourcePath?: string;
  /** Receives the handshake promise as soon as it starts. */
  onConnecting?(connecting: Promise<MCPServerConnection>): void;
  /** Receives the connection as soon as the handshake succeeded, before its tools are listed. */
  onConnected?(connection: MCPServerConnection): void;
  /** Receives the tool-list promise once the handshake succeeded. */
  onListing?(listing: Promise<ConnectedServer>): void;
}

const stderrOf = (connection: MCPServerConnection | undefined): { stderrTail?: string } => {
  const tail = connection?.stderrTail().trim();
  return tail ? { stderrTail: tail } : {};
};

/**
 * Steps 4–6 of the §3.5 pipeline for one server: resolve `!cmd` values and auth,
 * connect with the resolved config (the connection keeps the unresolved one),
 * then list its tools, both within the config's `timeout`. On any failure, or
 * when `signal` aborts, the connection is closed before the promise rejects
 * with an `McpRtError` (or `signal.reason`).
 */
export async function connectAndList(
  name: string,
  config: MCPServerConfig,
  options: ConnectAndListOptions,
): Promise<ConnectedServer> {
  const { signal } = options;
  const startedAt = performance.now();
  const timeoutMs = config.timeout ?? DEFAULT_SERVER_TIMEOUT_MS;
  let connection: MCPServerConnection | undefined;
  try {
    const connecting = (async () => {
      const resolved = await abortable(
        resolveServerConfig(name, config, {
          cwd: options.cwd,
          ...(options.authStorage ? { authStorage: options.authStorage } : {}),
        }),
        signal,
      );
      return connectToServer(name, resolved, {
        signal,
        cwd: options.cwd,
        unresolvedConfig: config,
        ...(options.sourcePath ? { sourcePath: options.sourcePath } : {}),
      });
    })();
    options.onConnecting?.(connecting);
    connection = await connecting;
    signal.throwIfAborted();
    options.onConnected?.(connection);

    const open = connection;
    const remaining = Math.max(1, Math.round(timeoutMs - (performance.now() - startedAt)));
    const listing = listTools(open, { signal, timeout: remaining }).then((serverTools) => ({
      connection: open,
      serverTools,
    }));
    options.onListing?.(listing);
    const listed = await listing;
    signal.throwIfAborted();
    return listed;
  } catch (error) {
    // Nothing started for an attempt that failed or was called off may outlive it.
    if (connection) await closeConnection(connection).catch(() => {});
    if (signal.aborted) throw signal.reason;
    if (McpRtError.isInstance(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new McpRtError("INIT_FAILED", `MCP server "${name}" failed to start: ${message}`, {
      server: name,
      cause: error,
      ...stderrOf(connection),
    });
  }
}
