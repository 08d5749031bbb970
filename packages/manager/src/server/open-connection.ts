import { toolCacheFingerprint } from "@mcp-rt/cache";
import type {
  ElicitationHandler,
  MCPEraVerdict,
  MCPServerConnection,
  OAuthOptions,
  ToolLimits,
} from "@mcp-rt/client";
import {
  type AuthStorage,
  type MCPServerConfig,
  type MCPToolDefinition,
  McpRtError,
  resolveServerConfig,
} from "@mcp-rt/config";
import { errorMessage, monotonicMs } from "@mcp-rt/config/util";
import { abortable } from "../abortable.js";
import { client, loadClient } from "../client-module.js";
import type { MCPServerProtocol } from "../manager-types.js";

/** Options of {@link openConnection}. */
export interface OpenConnectionOptions {
  /** The agent's folder: where stdio servers start. */
  cwd: string;
  /** Stops the attempt: the promise rejects with `signal.reason`, and a connection made meanwhile is closed. */
  signal: AbortSignal;
  /** Secrets for `auth: { type: "apikey" }`. */
  authStorage?: AuthStorage | undefined;
  /** The config file, for error messages. */
  sourcePath?: string | undefined;
  /** See `MCPManagerOptions.maxMessageBytes`. @default 10485760 */
  maxMessageBytes?: number | undefined;
  /** OAuth for remote servers: where sign-ins live, and whether a browser sign-in may run. */
  oauth?: OAuthOptions | undefined;
  /** Answers the server's elicitations; see `MCPManagerOptions.onElicitation`. */
  onElicitation?: ElicitationHandler | undefined;
  /** The era an earlier connection found: connect in it without a probe. */
  prior?: MCPEraVerdict | undefined;
}

/** A connection {@link openConnection} made, and the fingerprint of what it handed the server. */
export interface OpenedConnection {
  connection: MCPServerConnection;
  /**
   * The fingerprint of the resolved config (env, args, headers after `!cmd`
   * values and API keys; the values themselves are not kept): a reload
   * compares it to see whether those values changed.
   */
  resolvedFingerprint: string;
}

/**
 * Resolves a server's `!cmd` values and API keys, then connects with the
 * resolved config; the connection keeps the unresolved one (stable cache
 * keys, no secret kept beyond the handshake).
 */
export async function openConnection(
  name: string,
  config: MCPServerConfig,
  options: OpenConnectionOptions,
): Promise<OpenedConnection> {
  const { signal, cwd } = options;
  const resolved = await abortable(
    resolveServerConfig({
      name,
      config,
      cwd,
      ...(options.authStorage ? { authStorage: options.authStorage } : {}),
    }),
    signal,
  );
  const resolvedFingerprint = toolCacheFingerprint({ serverName: name, config: resolved, cwd });
  const { connectToServer } = await abortable(loadClient(), signal);
  const connection = await connectToServer({
    name,
    config: resolved,
    signal,
    cwd,
    unresolvedConfig: config,
    ...(options.sourcePath ? { sourcePath: options.sourcePath } : {}),
    ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
    ...(options.oauth ? { oauth: options.oauth } : {}),
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    ...(options.prior ? { prior: options.prior } : {}),
  });
  return { connection, resolvedFingerprint };
}

/**
 * What an attempt that threw `error` failed with: the abort's reason when it
 * was called off, an `McpRtError` as it is, anything else as `INIT_FAILED`
 * with the server's last stderr lines.
 */
export function startError(
  name: string,
  error: unknown,
  signal: AbortSignal,
  connection: MCPServerConnection | undefined,
): unknown {
  if (signal.aborted) return signal.reason;
  if (McpRtError.isInstance(error)) return error;
  const tail = connection?.stderrTail().trim();
  return new McpRtError("INIT_FAILED", `MCP server "${name}" failed to start: ${errorMessage(error)}`, {
    server: name,
    cause: error,
    ...(tail ? { stderrTail: tail } : {}),
  });
}

/** What {@link probeServer} found: the server as it introduced itself, and its tools. */
export interface ServerProbe {
  serverInfo: MCPServerConnection["serverInfo"];
  protocolVersion: string | undefined;
  /** The era it spoke on this connection, and how that was decided (a test always asks the server). */
  protocol: MCPServerProtocol;
  tools: MCPToolDefinition[];
  /** Connect + list time (ms). */
  ms: number;
}

/** Options of {@link probeServer}: the server, its limits, and how to connect. */
export interface ProbeServerOptions extends OpenConnectionOptions {
  /** The server's name, in errors. */
  name: string;
  /** Its unresolved config. */
  config: MCPServerConfig;
  /** The limit of the connect, and of the list. */
  timeoutMs: number;
  /** See `MCPManagerOptions.toolLimits`. */
  toolLimits?: ToolLimits | undefined;
}

/**
 * Connects to one server on a connection of its own, lists its tools and
 * closes again: a health check by hand (`/mcp test`). Rejects with an
 * `McpRtError` (with the server's stderr tail when it has one), or with
 * `signal.reason`.
 */
export async function probeServer(options: ProbeServerOptions): Promise<ServerProbe> {
  const { name, config, signal, timeoutMs } = options;
  const started = monotonicMs();
  let connection: MCPServerConnection | undefined;
  try {
    ({ connection } = await openConnection(name, { ...config, timeout: timeoutMs }, options));
    const tools = await client().listTools(connection, {
      signal,
      timeout: timeoutMs,
      ...(options.toolLimits ? { limits: options.toolLimits } : {}),
    });
    return {
      serverInfo: connection.serverInfo,
      protocolVersion: connection.protocolVersion,
      protocol: {
        era: connection.era,
        protocolVersion: connection.eraVerdict.protocolVersion,
        decision: connection.eraDecision,
      },
      tools,
      ms: Math.round(monotonicMs() - started),
    };
  } catch (error) {
    const failure = startError(name, error, signal, connection);
    const tail = connection?.stderrTail().trim();
    // The server's last words belong in the answer to a test, whatever failed.
    if (McpRtError.isInstance(failure) && !failure.stderrTail && tail) {
      throw new McpRtError(failure.code, failure.message, {
        cause: failure,
        ...(failure.server ? { server: failure.server } : {}),
        details: failure.details,
        stderrTail: tail,
      });
    }
    throw failure;
  } finally {
    if (connection)
      await client()
        .closeConnection(connection)
        .catch(() => {});
  }
}
