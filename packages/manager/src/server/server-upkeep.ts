import type { MCPConnectionCloseEvent, MCPServerConnection } from "@mcp-rt/client";
import { isSignInRequired } from "@mcp-rt/client/light";
import { McpRtError } from "@mcp-rt/config";
import { errorMessage, type TaskGroup } from "@mcp-rt/config/util";
import { client } from "../client-module.js";
import type { TypedEmitter } from "../event-emitter.js";
import type { ServerTable } from "../fleet/server-table.js";
import type { StartPace } from "../fleet/start-pace.js";
import type { ManagerCache } from "../manager-cache.js";
import type { MCPManagerEvents, MCPManagerOptions } from "../manager-types.js";
import type { ToolCatalog } from "../tools/tool-catalog.js";
import { ConnectionWatch } from "./connection-watch.js";
import { HealthMonitor, resolveHealthCheck } from "./health-monitor.js";
import { type ReconnectStep, resolveReconnectOptions } from "./reconnect-policy.js";
import { ReconnectScheduler } from "./reconnect-scheduler.js";
import { type ContentList, listServerContent, NO_CONTENT, type ServerContent } from "./server-content.js";
import { contentListOptions, type ServerLimits, toolListOptions } from "./server-limits.js";
import type { ServerRecord } from "./server-record.js";

/** Re-lists in a row held back by `minRelistIntervalMs` after which a server's tool changes are logged as a storm. */
const STORM_RELISTS = 3;

/** A live connection went away: why, and whether an automatic attempt should follow. */
interface Drop {
  reason: string;
  error: McpRtError;
  reconnect: boolean;
}

/** Tells listeners which of a server's lists changed. */
export function announceContent(
  emitter: TypedEmitter<MCPManagerEvents>,
  record: ServerRecord,
  changed: readonly ContentList[],
): void {
  for (const list of changed) emitter.emit(`${list}:changed`, { name: record.name });
}

/** Why a server that was connected is not any more. */
export function dropError(record: ServerRecord): McpRtError {
  return (
    record.lastError ??
    new McpRtError("TRANSPORT_CLOSED", `MCP server "${record.name}" disconnected`, { server: record.name })
  );
}

/** What a {@link ServerUpkeep} uses: the few things it reads, and the few steps of a server's life it takes. */
export interface ServerUpkeepOptions {
  /** The project folder, part of cache keys. */
  cwd: string;
  options: Pick<MCPManagerOptions, "logger" | "reconnect" | "healthCheckIntervalMs" | "healthCheckTimeoutMs">;
  /** What each server may send (page limits, the re-list interval). */
  limits: ServerLimits;
  table: Pick<ServerTable, "get" | "holds" | "connections">;
  catalog: Pick<ToolCatalog, "invalidate">;
  cache: Pick<ManagerCache, "get">;
  emitter: TypedEmitter<MCPManagerEvents>;
  /** Background work `disconnectAll` waits for. */
  tasks: Pick<TaskGroup, "add">;
  /** Starts the next automatic attempt of `record`. */
  reconnect(record: ServerRecord): void;
  /** `record` failed for good (the circuit breaker opened). */
  fail(record: ServerRecord, error: McpRtError): void;
  /** `record`'s connection found that it needs a new sign-in. */
  signInLost(record: ServerRecord, error: McpRtError): void;
  /** When a cache write may start (the start path's pace). */
  pace: Pick<StartPace, "beforeCacheWrite">;
}

/**
 * What happens to a server once its connection is live (docs/architecture.md):
 * the watch on the connection, re-lists of its tools, resources and prompts
 * on `list_changed` (rate-limited, a storm logged once), subscriptions made
 * again after a reconnect, the cache write, and what follows when the
 * connection closes or fails a health ping: automatic attempts with backoff
 * until it is back or the circuit breaker gives up. The attempts themselves,
 * failures and sign-ins are the lifecycle's (`server-lifecycle.ts`).
 */
export class ServerUpkeep {
  readonly #parts: ServerUpkeepOptions;
  /** `null` with `reconnect: false`. */
  readonly #reconnects: ReconnectScheduler | null;
  /** `null` without `healthCheckIntervalMs`. */
  readonly #health: HealthMonitor | null;

  constructor(parts: ServerUpkeepOptions) {
    this.#parts = parts;
    const policy = resolveReconnectOptions(parts.options.reconnect);
    this.#reconnects = policy ? new ReconnectScheduler(policy) : null;
    const health = resolveHealthCheck(parts.options);
    this.#health = health
      ? new HealthMonitor({
          ...health,
          connections: () => parts.table.connections(),
          onUnhealthy: (connection, error) => {
            const record = parts.table.get(connection.name);
            if (record) this.#dropped(record, connection, { reason: error.message, error, reconnect: true });
          },
        })
      : null;
  }

  /** Follows a new connection: its close, its errors, `list_changed` (rate-limited, logged once when it had to be). */
  watch(record: ServerRecord, connection: MCPServerConnection): ConnectionWatch {
    const { logger } = this.#parts.options;
    const { minRelistIntervalMs } = this.#parts.limits;
    return new ConnectionWatch({
      connection,
      onClose: (event) => this.#closed(record, connection, event),
      onError: (error) => logger?.debug(`MCP server "${record.name}" reported an error`, error),
      relist: (signal) => this.#relist(record, connection, signal),
      relistContent: (list, signal) => this.#relistContent(record, connection, list, signal),
      onResourceUpdated: (uri) => this.#parts.emitter.emit("resource:updated", { name: record.name, uri }),
      logger,
      minRelistIntervalMs,
      // A few quick changes are normal; a server still at it after three intervals is storming.
      onThrottle: (inARow) => {
        if (inARow < STORM_RELISTS || !record.firstTime("minRelistIntervalMs")) return;
        logger?.warn(
          `MCP server "${record.name}" announces tool changes faster than once per ${minRelistIntervalMs} ms; its tools are listed again at most that often (limit minRelistIntervalMs)`,
        );
      },
    });
  }

  /** `record` connected: its reconnect counts start over, and health pings run (if configured). */
  connected(record: ServerRecord): void {
    if (this.#reconnects) this.#reconnects.connected(record);
    this.#health?.start();
  }

  /**
   * Takes over a committed connection: writes the cache (once late resources
   * and prompts are in, which are then applied), subscribes again to what
   * was subscribed to, and activates the watch.
   */
  takeOver(
    record: ServerRecord,
    connection: MCPServerConnection,
    lateContent: Promise<Partial<ServerContent>> | null,
  ): void {
    const { emitter, table, tasks } = this.#parts;
    if (lateContent) {
      tasks.add(
        lateContent.then((listed) => {
          if (!table.holds(record) || record.connection !== connection) return;
          announceContent(emitter, record, record.setContent({ ...NO_CONTENT, ...listed }));
          this.#writeCache(record, connection);
        }),
      );
    } else {
      this.#writeCache(record, connection);
    }
    this.#resubscribe(record, connection);
    record.activateWatch();
  }

  /** Schedules the next automatic attempt of `record`, or gives up when its circuit breaker opens. */
  retry(record: ServerRecord): void {
    if (!this.#reconnects) return;
    const step = this.#reconnects.retry(record, () => {
      if (this.#parts.table.holds(record) && !record.active) this.#parts.reconnect(record);
    });
    if (step.retry) {
      this.#parts.emitter.emit("server:reconnecting", {
        name: record.name,
        attempt: step.attempt,
        delayMs: step.delayMs,
      });
    } else {
      this.#giveUp(record, step);
    }
  }

  /** Every server was stopped: no ping timer is left (reconnect timers went with their records). */
  stop(): void {
    this.#health?.stop();
  }

  /** After a reconnect, the resources subscribed to before are subscribed to again (best effort). */
  #resubscribe(record: ServerRecord, connection: MCPServerConnection): void {
    for (const uri of record.subscriptions) {
      this.#parts.tasks.add(
        client()
          .subscribeResource(connection, { uri })
          .catch((error: unknown) =>
            this.#parts.options.logger?.debug(
              `MCP server "${record.name}": subscribing again to ${uri} failed: ${errorMessage(error)}`,
            ),
          ),
      );
    }
  }

  /**
   * `notifications/tools/list_changed`: lists every page again and replaces
   * exactly this server's slice, if the connection is still its live one.
   */
  async #relist(record: ServerRecord, connection: MCPServerConnection, signal: AbortSignal): Promise<void> {
    const { limits, options } = this.#parts;
    const serverTools = await client().listTools(connection, {
      ...toolListOptions(record, limits, options.logger),
      signal,
    });
    if (signal.aborted || !this.#parts.table.holds(record) || record.connection !== connection) return;
    record.relisted(serverTools);
    this.#parts.catalog.invalidate();
    this.#parts.emitter.emit("tools:changed", { name: record.name });
    this.#writeCache(record, connection);
  }

  /** `notifications/resources|prompts/list_changed`: lists that again, if the connection is still the live one. */
  async #relistContent(
    record: ServerRecord,
    connection: MCPServerConnection,
    list: ContentList,
    signal: AbortSignal,
  ): Promise<void> {
    const { limits, options } = this.#parts;
    const content = await listServerContent(connection, {
      ...contentListOptions(record, limits, options.logger),
      signal,
      only: list,
    });
    if (signal.aborted || !this.#parts.table.holds(record) || record.connection !== connection) return;
    const changed = record.setContent(content);
    announceContent(this.#parts.emitter, record, changed);
    if (changed.length > 0) this.#writeCache(record, connection);
  }

  /**
   * Best-effort cache write of a server's full, unfiltered list, off the
   * start path: it starts when the start's pace allows (`StartPace`).
   * `disconnectAll` still waits for it.
   */
  #writeCache(record: ServerRecord, connection: MCPServerConnection): void {
    const { cache, cwd, tasks } = this.#parts;
    const { name, config, content, instructions } = record;
    const serverTools = [...record.listedTools];
    const { serverInfo, eraVerdict } = connection;
    const write = cache.get().then(async (open) => {
      if (!open) return;
      await this.#parts.pace.beforeCacheWrite();
      await open.set(
        { serverName: name, config, cwd },
        {
          tools: serverTools,
          serverInfo,
          resources: [...content.resources],
          resourceTemplates: [...content.resourceTemplates],
          prompts: [...content.prompts],
          ...(instructions === undefined ? {} : { instructions }),
          era: eraVerdict,
        },
      );
    });
    tasks.add(write);
  }

  #closed(record: ServerRecord, connection: MCPServerConnection, event: MCPConnectionCloseEvent): void {
    const error = event.error ?? new McpRtError("TRANSPORT_CLOSED", event.reason, { server: record.name });
    // A sign-in is the user's to give: no reconnect timer can fix it.
    if (isSignInRequired(error) && record.connection === connection) {
      this.#parts.signInLost(record, error);
      return;
    }
    // A close the client asked for (`expected`) is someone's decision: it is not undone.
    this.#dropped(record, connection, { reason: event.reason, error, reconnect: !event.expected });
  }

  /**
   * A live connection went away (its transport closed, or it failed a health
   * check): the server leaves `connected` at once, its tools stay but fail
   * fast, what is left of it is reaped, and it is reconnected unless
   * reconnecting is off.
   */
  #dropped(record: ServerRecord, connection: MCPServerConnection, drop: Drop): void {
    const { table, tasks, emitter, options } = this.#parts;
    if (record.connection !== connection || !table.holds(record)) return;
    const reconnect = drop.reconnect && this.#reconnects !== null;
    record.drop(drop.reason, drop.error, reconnect);
    // Reaps what is left of the server (its process group) even though it went away on its own.
    tasks.add(client().closeConnection(connection));
    // A drop before `connectServers` returned is reported in its `errors` instead; a server
    // that keeps dying while it is being reconnected is logged once, when the breaker opens.
    const message = dropError(record).message;
    if (this.#reconnects?.inOutage(record)) {
      options.logger?.debug(`${message}; still reconnecting`);
    } else if (record.attempt?.returned !== false) {
      options.logger?.warn(`${message}${reconnect ? "; reconnecting" : ""}`);
    }
    emitter.emit("server:disconnected", { name: record.name, reason: drop.reason });
    // A listener may have stopped or restarted it meanwhile.
    if (reconnect && table.holds(record) && !record.active) this.retry(record);
  }

  /** The circuit breaker opened: the server is `failed` until it is connected on purpose. */
  #giveUp(record: ServerRecord, step: Extract<ReconnectStep, { retry: false }>): void {
    const { name } = record;
    const last = record.lastError;
    const error = new McpRtError(
      last?.code ?? "TRANSPORT_CLOSED",
      `MCP server "${name}" did not come back after ${step.attempts} reconnect attempts (${step.failedBursts} failed bursts); gave up. Last error: ${last?.message ?? "unknown"}. Fix it, then connect it again (e.g. /mcp reload)`,
      {
        server: name,
        ...(last ? { cause: last } : {}),
        ...(last?.stderrTail ? { stderrTail: last.stderrTail } : {}),
      },
    );
    this.#parts.fail(record, error);
    this.#parts.options.logger?.warn(error.message);
  }
}
