import type { MCPServerConnection } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { errorMessage, MAX_TIMER_MS } from "@mcp-rt/config/util";
import { client } from "../client-module.js";

/** Health checks when a manager has them on: how often, and how long a ping may take. */
export interface HealthCheckSettings {
  intervalMs: number;
  timeoutMs: number;
}

/** The longest delay `setInterval` takes. */

/**
 * The manager's `healthCheckIntervalMs` / `healthCheckTimeoutMs` options:
 * `null` when checks are off (unset or 0); the timeout defaults to the
 * smaller of the interval and 10 s. Throws `CONFIG_INVALID` naming the option
 * for a value that is not a number of ms in range.
 */
export function resolveHealthCheck(options: {
  healthCheckIntervalMs?: number | undefined;
  healthCheckTimeoutMs?: number | undefined;
}): HealthCheckSettings | null {
  const { healthCheckIntervalMs: intervalMs, healthCheckTimeoutMs: timeoutMs } = options;
  const check = (field: string, value: unknown, min: number): void => {
    if (typeof value === "number" && value >= min && value <= MAX_TIMER_MS) return;
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCPManager option ${field}: expected a number of ms from ${min} to ${MAX_TIMER_MS}, got ${String(value)}`,
    );
  };
  if (intervalMs !== undefined) check("healthCheckIntervalMs", intervalMs, 0);
  if (timeoutMs !== undefined) check("healthCheckTimeoutMs", timeoutMs, 1);
  if (!intervalMs) return null;
  return { intervalMs, timeoutMs: timeoutMs ?? Math.min(intervalMs, 10_000) };
}

/** Options of {@link HealthMonitor}. */
export interface HealthMonitorOptions extends HealthCheckSettings {
  /** The connections to ping now. */
  connections(): Iterable<MCPServerConnection>;
  /** `connection` did not answer in time (or its ping failed): treat it as dropped. */
  onUnhealthy(connection: MCPServerConnection, error: McpRtError): void;
}

/**
 * Optional health checks: every `intervalMs`, pings each connected
 * server that is not still answering the previous ping. A server that
 * answers with an error is alive (it just does not implement `ping`); one
 * that does not answer within `timeoutMs` — hung, stopped, behind a dead
 * network — is reported through `onUnhealthy`. A connection that closed
 * meanwhile is left to its close event. The timer is unref'd, and stops by
 * itself when there is nothing to ping.
 */
export class HealthMonitor {
  readonly #options: HealthMonitorOptions;
  readonly #inFlight = new Set<MCPServerConnection>();
  #timer: NodeJS.Timeout | undefined;
  #controller = new AbortController();

  constructor(options: HealthMonitorOptions) {
    this.#options = options;
  }

  /** Starts pinging (idempotent). */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#tick(), this.#options.intervalMs);
    this.#timer.unref();
  }

  /** Stops pinging; pings in flight are aborted and their outcome ignored. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#controller.abort();
    this.#controller = new AbortController();
  }

  #tick(): void {
    const { signal } = this.#controller;
    const connections = [...this.#options.connections()];
    if (connections.length === 0) {
      this.stop();
      return;
    }
    for (const connection of connections) {
      if (this.#inFlight.has(connection) || connection.closed) continue;
      this.#inFlight.add(connection);
      client()
        .ping(connection, { signal, timeout: this.#options.timeoutMs })
        .catch((error: unknown) => {
          if (signal.aborted || connection.closed || answered(error)) return;
          this.#options.onUnhealthy(connection, unhealthyError(connection, error, this.#options.timeoutMs));
        })
        .finally(() => this.#inFlight.delete(connection));
    }
  }
}

/** A JSON-RPC error answer: the server is there, it only refused the request. */
function answered(error: unknown): boolean {
  return McpRtError.isInstance(error, "PROTOCOL_ERROR") && error.details?.rpcCode !== undefined;
}

function unhealthyError(connection: MCPServerConnection, error: unknown, timeoutMs: number): McpRtError {
  const { name } = connection;
  if (McpRtError.isInstance(error) && error.code === "REQUEST_TIMEOUT") {
    return new McpRtError(
      "REQUEST_TIMEOUT",
      `MCP server "${name}" did not answer a health-check ping within ${timeoutMs} ms (raise healthCheckTimeoutMs if it is just slow)`,
      { server: name, cause: error },
    );
  }
  const message = errorMessage(error);
  return new McpRtError(
    McpRtError.isInstance(error) ? error.code : "TRANSPORT_CLOSED",
    `MCP server "${name}" failed a health-check ping: ${message}`,
    { server: name, cause: error },
  );
}
