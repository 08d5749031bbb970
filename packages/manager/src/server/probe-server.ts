import type { MCPServerConnection, ToolLimits } from "@mcp-rt/client";
import { type MCPServerConfig, type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import { monotonicMs } from "@mcp-rt/config/util";
import { client } from "../client-module.js";
import type { MCPServerProtocol } from "../manager-types.js";
import { type OpenConnectionOptions, openConnection, startError } from "./connect-and-list.js";

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
