import type { MCPServerConnection } from "./connection.js";
import { type ServerRequestOptions, sendRequest } from "./server-request.js";

/** Options of {@link ping}: `signal` aborts it; `timeout` is how long the server may take to answer (ms, default config.timeout ?? 30000). */
export type PingOptions = ServerRequestOptions;

/**
 * Sends the MCP `ping` request and resolves once the server answers; on a
 * 2026-07-28 connection, which has no `ping`, `server/discover` stands in
 * as the liveness check (every modern server answers it). Rejects
 * with an `McpRtError`: `REQUEST_TIMEOUT` when no answer came within
 * `timeout`, `TRANSPORT_CLOSED` when the connection is (or goes) away,
 * `PROTOCOL_ERROR` (with `details.rpcCode`) when the server answered with an
 * error — it is alive, it just does not implement `ping`; with an
 * `AbortError` when `signal` aborts.
 */
export async function ping(connection: MCPServerConnection, options: PingOptions = {}): Promise<void> {
  if (connection.era === "modern") {
    await sendRequest(
      connection,
      "ping (server/discover)",
      (client, request) => client.discover(request),
      options,
    );
  } else {
    await sendRequest(connection, "ping", (client, request) => client.ping(request), options);
  }
}
