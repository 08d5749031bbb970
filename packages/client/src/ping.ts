import { DEFAULT_CONNECT_TIMEOUT_MS } from "./connect-to-server.js";
import type { MCPServerConnection } from "./connection.js";
import { getConnectionInternals } from "./connection.js";
import { linkSignal } from "./linked-signal.js";
import { notConnectedError, toRequestError } from "./request-error.js";
import { checkTimeOption, timerMs } from "./time-limit.js";

/** Options of {@link ping}. */
export interface PingOptions {
  /** Aborts the ping; the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** How long the server may take to answer, in ms. @default config.timeout ?? 30000 */
  timeout?: number;
}

/**
 * Sends the MCP `ping` request and resolves once the server answers. Rejects
 * with an `McpRtError`: `REQUEST_TIMEOUT` when no answer came within
 * `timeout`, `TRANSPORT_CLOSED` when the connection is (or goes) away,
 * `PROTOCOL_ERROR` (with `details.rpcCode`) when the server answered with an
 * error — it is alive, it just does not implement `ping`; with an
 * `AbortError` when `signal` aborts.
 */
export async function ping(connection: MCPServerConnection, options: PingOptions = {}): Promise<void> {
  const internals = getConnectionInternals(connection);
  const what = "ping";
  if (connection.closed) throw notConnectedError(connection, internals, what);
  checkTimeOption("timeout", options.timeout);
  const timeoutMs = options.timeout ?? connection.config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  // A signal of our own, unlinked once the ping settled: the SDK never removes the abort listener it adds.
  const linked = options.signal ? linkSignal(options.signal) : undefined;
  try {
    await internals.client.ping({
      timeout: timerMs(timeoutMs),
      ...(linked ? { signal: linked.signal } : {}),
    });
  } catch (error) {
    throw toRequestError({
      connection,
      internals,
      error,
      what,
      timeoutField: "timeout",
      timeoutMs,
      signal: options.signal,
    });
  } finally {
    linked?.unlink();
  }
}
