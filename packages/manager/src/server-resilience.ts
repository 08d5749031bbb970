import type { MCPServerConnection } from "@mcp-rt/client";
import { type Logger, McpRtError } from "@mcp-rt/config";
import type { TypedEmitter } from "./event-emitter.js";
import { HealthMonitor, resolveHealthCheck } from "./health-monitor.js";
import type { MCPManagerEvents, MCPManagerOptions } from "./manager-types.js";
import { resolveReconnectOptions } from "./reconnect-policy.js";
import { ReconnectScheduler } from "./reconnect-scheduler.js";
import type { ServerRecord } from "./server-record.js";

/** What {@link ServerResilience} needs from the manager. */
export interface ResilienceHost {
  /** The record of a server the manager still knows. */
  record(name: string): ServerRecord | undefined;
  /** True while `name` is connected, or an attempt of it is pending. */
  isActive(name: string): boolean;
  /** Starts an automatic reconnect attempt of `name` with its record's config. */
  reconnect(name: string, record: ServerRecord): void;
  /** Marks `name` failed (its tools go) and tells listeners. */
  fail(name: string, record: ServerRecord, error: McpRtError): void;
  /** The live connections, for health checks. */
  connections(): Iterable<MCPServerConnection>;
  /** `connection` failed its health check: drop it (close it, then the reconnect path). */
  unhealthy(connection: MCPServerConnection, error: McpRtError): void;
  /** The manager's events. */
  emitter: TypedEmitter<MCPManagerEvents>;
  logger: Logger | undefined;
}

/**
 * The manager's side of SPEC §4: brings back servers whose connection dropped
 * (backoff, jitter, circuit breaker; see `ReconnectOptions`), and, when
 * asked to, pings connected servers to find hung ones. The manager keeps its
 * maps; this decides when a dropped server is tried again and when it is
 * given up.
 */
export class ServerResilience {
  readonly #host: ResilienceHost;
  /** `null` with `reconnect: false`. */
  readonly #reconnects: ReconnectScheduler | null;
  /** `null` without `healthCheckIntervalMs`. */
  readonly #health: HealthMonitor | null;

  constructor(
    options: Pick<MCPManagerOptions, "reconnect" | "healthCheckIntervalMs" | "healthCheckTimeoutMs">,
    host: ResilienceHost,
  ) {
    this.#host = host;
    const health = resolveHealthCheck(options);
    this.#health = health
      ? new HealthMonitor({
          ...health,
          connections: () => host.connections(),
          onUnhealthy: (connection, error) => host.unhealthy(connection, error),
        })
      : null;
    const policy = resolveReconnectOptions(options.reconnect);
    this.#reconnects = policy
      ? new ReconnectScheduler({
          policy,
          onScheduled: (name, attempt, delayMs) =>
            host.emitter.emit("server:reconnecting", { name, attempt, delayMs }),
          onAttempt: (name) => this.#attempt(name),
          onGiveUp: (name, attempts, failedBursts) => this.#giveUp(name, attempts, failedBursts),
        })
      : null;
  }

  /** True unless `reconnect: false`. */
  get reconnects(): boolean {
    return this.#reconnects !== null;
  }

  /** While `name` is being reconnected: the number of its attempt, running or scheduled. */
  reconnectAttempt(name: string): number | undefined {
    return this.#reconnects?.isReconnecting(name) ? this.#reconnects.attempts(name) : undefined;
  }

  /** True when `name` dropped and has not been back for good since: a new drop is part of the same outage. */
  inOutage(name: string): boolean {
    return this.#reconnects?.inOutage(name) ?? false;
  }

  /**
   * `name` dropped and listeners were told: reconnects it, unless the record
   * was removed or the server connected again meanwhile.
   */
  dropped(name: string, record: ServerRecord): void {
    if (this.#host.record(name) !== record || this.#host.isActive(name)) return;
    this.#reconnects?.retry(name);
  }

  /** A reconnect attempt failed: the tools stay (failing fast); the next attempt is scheduled, or the breaker opens. */
  attemptFailed(name: string, error: McpRtError): void {
    this.#host.record(name)?.retrying(error);
    this.#host.logger?.debug(`Reconnecting MCP server "${name}" failed: ${error.message}`);
    this.#reconnects?.retry(name);
  }

  /** `name` connected (by a reconnect or not): it is pinged from now on, if health checks are on. */
  connected(name: string): void {
    this.#reconnects?.connected(name);
    this.#health?.start();
  }

  /** Everything was disconnected: no ping timer is left (reconnects were cancelled one by one). */
  stop(): void {
    this.#health?.stop();
  }

  /** Forgets `name`'s reconnecting at once (disconnected, or connected on purpose): no timer is left. */
  cancel(name: string): void {
    this.#reconnects?.cancel(name);
  }

  /** The scheduled attempt of `name` is due. */
  #attempt(name: string): void {
    const record = this.#host.record(name);
    if (!record || this.#host.isActive(name)) return;
    this.#host.reconnect(name, record);
  }

  /** The circuit breaker opened: the server is `failed` until it is connected on purpose. */
  #giveUp(name: string, attempts: number, failedBursts: number): void {
    const record = this.#host.record(name);
    if (!record) return;
    const last = record.lastError;
    const error = new McpRtError(
      last?.code ?? "TRANSPORT_CLOSED",
      `MCP server "${name}" did not come back after ${attempts} reconnect attempts (${failedBursts} failed bursts); gave up. Last error: ${last?.message ?? "unknown"}. Fix it, then connect it again (e.g. /mcp reload)`,
      {
        server: name,
        ...(last ? { cause: last } : {}),
        ...(last?.stderrTail ? { stderrTail: last.stderrTail } : {}),
      },
    );
    this.#host.fail(name, record, error);
    this.#host.logger?.warn(error.message);
  }
}
