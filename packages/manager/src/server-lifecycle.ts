import { toolCacheFingerprint } from "@mcp-rt/cache";
import type {
  MCPConnectionCloseEvent,
  MCPServerConnection,
  OAuthOptions,
  ToolLimitBreach,
} from "@mcp-rt/client";
import { isSignInRequired } from "@mcp-rt/client/light";
import {
  type AuthStorage,
  hasRuntimeValues,
  type MCPServerConfig,
  type MCPToolDefinition,
  McpRtError,
  resolveServerConfig,
} from "@mcp-rt/config";
import { abortError, errorMessage, settleWithin, type TaskGroup } from "@mcp-rt/config/util";
import { Attempt } from "./attempt.js";
import { client, loadClient } from "./client-module.js";
import { ConnectionWatch } from "./connection-watch.js";
import type { TypedEmitter } from "./event-emitter.js";
import { HealthMonitor, resolveHealthCheck } from "./health-monitor.js";
import type { ManagerCache } from "./manager-cache.js";
import type { MCPManagerEvents, MCPManagerOptions } from "./manager-types.js";
import { DEFAULT_SERVER_TIMEOUT_MS, openConnection, startError } from "./open-connection.js";
import { type ReconnectStep, resolveReconnectOptions } from "./reconnect-policy.js";
import { ReconnectScheduler } from "./reconnect-scheduler.js";
import { type ContentList, listServerContent, NO_CONTENT, type ServerContent } from "./server-content.js";
import type { ServerLimits } from "./server-limits.js";
import type { ServerRecord } from "./server-record.js";
import type { ServerTable } from "./server-table.js";
import type { ToolCatalog } from "./tool-catalog.js";

/** What a {@link ServerLifecycle} works on: the manager's parts it shares. */
export interface ServerLifecycleParts {
  /** The project folder: where stdio servers start, part of cache keys. */
  cwd: string;
  options: MCPManagerOptions;
  /** What each server may send, from the options. */
  limits: ServerLimits;
  /** Where API keys and sign-ins live, when the manager has a store. */
  authStorage: AuthStorage | undefined;
  table: ServerTable;
  catalog: ToolCatalog;
  cache: ManagerCache;
  emitter: TypedEmitter<MCPManagerEvents>;
  /** Background work `disconnectAll` waits for. */
  tasks: TaskGroup;
}

/**
 * How long a server's tools wait, once listed, for its resources and prompts;
 * later lists are applied when they land (`resources:changed`, `prompts:changed`).
 */
const CONTENT_GRACE_MS = 1000;

/** Re-lists in a row held back by `minRelistIntervalMs` after which a server's tool changes are logged as a storm. */
const STORM_RELISTS = 3;

/** How an attempt starts. */
export interface StartOptions {
  /** An automatic reconnect: no cache read, `server:reconnecting` instead of `server:connecting`. @default false */
  reconnect?: boolean;
  /** `login`: a remote server that needs a sign-in runs the browser step. @default false */
  interactive?: boolean;
}

/** A live connection went away: why, and whether an automatic attempt should follow. */
interface Drop {
  reason: string;
  error: McpRtError;
  reconnect: boolean;
}

/**
 * The life of each server, from start to stop (docs/architecture.md): an
 * attempt resolves its config, connects and lists its tools; a success is
 * committed (live tools, cache write, watch on the connection); a failure
 * marks it failed; a drop at run time leads to automatic attempts with
 * backoff until it is back or the circuit breaker gives up; optional health
 * pings find hung servers; stopping closes whatever it has.
 */
export class ServerLifecycle {
  readonly #parts: ServerLifecycleParts;
  /** `null` with `reconnect: false`. */
  readonly #reconnects: ReconnectScheduler | null;
  /** `null` without `healthCheckIntervalMs`. */
  readonly #health: HealthMonitor | null;
  /** Cache reads of starting attempts: the client is loaded after them (see {@link ServerLifecycle.start}). */
  readonly #reads = new Set<Promise<unknown>>();

  constructor(parts: ServerLifecycleParts) {
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

  /**
   * Starts an attempt of `record` with `config`, and its cache read, together.
   * An automatic reconnect reads no cache (the server's tools are still
   * there) and announces itself with `server:reconnecting` instead of
   * `server:connecting`. Starting on purpose ends a reconnect in progress.
   */
  start(record: ServerRecord, config: MCPServerConfig, how: StartOptions = {}): Attempt {
    const { cwd, cache, emitter } = this.#parts;
    const reconnect = how.reconnect ?? false;
    if (!reconnect) {
      if (record.outage?.timer) clearTimeout(record.outage.timer);
      delete record.outage;
      emitter.emit("server:connecting", { name: record.name });
    }
    const attempt = new Attempt({
      name: record.name,
      config,
      cache: reconnect ? null : cache.get(),
      cwd,
      reconnect,
      interactive: how.interactive ?? false,
      run: (attempt) => {
        // Set before the pipeline's first step, so that the pipeline can tell whether it is still current.
        record.start(attempt);
        return this.#pipeline(record, attempt);
      },
    });
    const read = attempt.cached;
    this.#reads.add(read);
    void read.then(() => this.#reads.delete(read));
    return attempt;
  }

  /**
   * The startup gate offers a pending attempt's cached tools: they stand in
   * as deferred tools. False when the attempt is no longer current.
   */
  defer(attempt: Attempt, cached: MCPToolDefinition[]): boolean {
    const record = this.#parts.table.get(attempt.name);
    if (!record || !this.#isCurrent(record, attempt)) return false;
    if (this.#parts.catalog.defer(record, cached)) {
      this.#parts.emitter.emit("tools:changed", { name: record.name });
    }
    const entry = attempt.cachedEntry;
    if (entry) this.#announceContent(record, record.deferContent(entry));
    return true;
  }

  /**
   * The config or an attempt failed (`attempt`, when there was one): its
   * tools go, listeners are told. A server that needs a sign-in becomes
   * `needs-auth` instead of `failed`, and is never retried on a timer.
   */
  fail(record: ServerRecord, error: McpRtError, attempt?: Attempt): void {
    const { catalog, emitter, options } = this.#parts;
    const signIn = isSignInRequired(error);
    const hadContent = record.setContent(NO_CONTENT);
    const hadTools = record.fail(error, signIn ? "needs-auth" : "failed");
    if (hadTools) catalog.rebuild();
    if (signIn) emitter.emit("server:needs-auth", { name: record.name, error });
    else emitter.emit("server:failed", { name: record.name, error });
    if (hadTools) emitter.emit("tools:changed", { name: record.name });
    this.#announceContent(record, hadContent);
    // A failure the caller already received in `errors` is not logged again.
    if (attempt?.returned) {
      options.logger?.warn(
        signIn ? error.message : `MCP server "${record.name}" failed after startup: ${error.message}`,
      );
    }
  }

  /**
   * A call or the connection found that the live server needs a new sign-in
   * (its tokens could not be refreshed): the connection is closed and the
   * server waits for `login`.
   */
  signInLost(record: ServerRecord, error: McpRtError): void {
    if (!this.#parts.table.holds(record) || record.phase === "needs-auth") return;
    this.#closeCurrent(record);
    this.fail(record, error);
  }

  /**
   * Signs `record` in through the browser (its connection, if any, closed
   * first) and connects it. Resolves once it is connected and listed;
   * rejects with the attempt's `McpRtError`, or with an `AbortError` when
   * `signal` aborts.
   */
  async signIn(record: ServerRecord, signal?: AbortSignal): Promise<MCPServerConnection> {
    this.#closeCurrent(record);
    const attempt = this.start(record, record.config, { interactive: true });
    const abort = (): void =>
      attempt.controller.abort(abortError(`Signing in to MCP server "${record.name}"`, signal?.reason));
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
    try {
      return await attempt.done;
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  }

  /**
   * Whether `record` runs something other than `config`: another unresolved
   * config, or (for a config with `!cmd` values or an API key, resolved again
   * with fresh command runs) other values reaching the server. A value that
   * cannot be resolved now leaves the server as it is: its next connect says why.
   */
  async differs(record: ServerRecord, config: MCPServerConfig): Promise<boolean> {
    const { cwd, authStorage, options } = this.#parts;
    if (!record.runs(config, cwd)) return true;
    const before = record.resolvedFingerprint;
    if (before === undefined || !hasRuntimeValues(config)) return false;
    try {
      const resolved = await resolveServerConfig(record.name, config, {
        cwd,
        fresh: true,
        ...(authStorage ? { authStorage } : {}),
      });
      return toolCacheFingerprint(record.name, resolved, cwd) !== before;
    } catch (error) {
      options.logger?.debug(
        `MCP server "${record.name}": its values could not be resolved again (${errorMessage(error)})`,
      );
      return false;
    }
  }

  /** Starts `record` again from scratch (its attempt or connection closed first), e.g. with a new API key. */
  restart(record: ServerRecord): Attempt {
    this.#closeCurrent(record);
    return this.start(record, record.config);
  }

  /**
   * Signs `record` out: its stored tokens and client registration are
   * deleted, its connection is closed, and it waits for `login`. Returns
   * whether a sign-in was stored.
   */
  async signOut(record: ServerRecord, storage: AuthStorage): Promise<boolean> {
    const found = await (await loadClient()).signOut(record.config, storage);
    this.#closeCurrent(record);
    this.fail(
      record,
      new McpRtError(
        "AUTH_REQUIRED",
        `MCP server "${record.name}" was signed out; sign in again with \`/mcp login ${record.name}\``,
        { server: record.name, details: { signIn: true, reason: "not-signed-in" } },
      ),
    );
    return found;
  }

  /**
   * Removes `record` from the table and calls off everything it has: its
   * attempt, watch, reconnect timer and connection. The tools are not rebuilt
   * here (the caller does it once for many). `closed` settles once what it
   * had open is closed.
   */
  stop(record: ServerRecord): {
    wasActive: boolean;
    hadTools: boolean;
    hadContent: ContentList[];
    closed: Promise<unknown>;
  } {
    const { table, tasks } = this.#parts;
    const wasActive = record.active;
    const hadTools = record.definitions.length > 0;
    const hadContent = record.setContent(NO_CONTENT);
    if (table.holds(record)) table.forget(record.name);
    record.quiet();
    record.attempt?.controller.abort(removedError(record.name));
    const closed = Promise.allSettled([
      record.connection && client().closeConnection(record.connection),
      record.attempt?.done,
    ]);
    // Tracked, so that a later disconnectAll also waits for closes already under way.
    tasks.add(closed);
    return { wasActive, hadTools, hadContent, closed };
  }

  /** Every server was stopped: no ping timer is left (reconnect timers went with their records). */
  stopAll(): void {
    this.#health?.stop();
  }

  /** Why a server that was connected is not any more. */
  dropError(record: ServerRecord): McpRtError {
    return (
      record.lastError ??
      new McpRtError("TRANSPORT_CLOSED", `MCP server "${record.name}" disconnected`, { server: record.name })
    );
  }

  /** OAuth for an attempt's connection: only with an auth store; a browser sign-in only for `login`. */
  #oauth(attempt: Attempt): OAuthOptions | undefined {
    const { authStorage } = this.#parts;
    const { openUrl, signInTimeoutMs } = this.#parts.options;
    if (!authStorage) return undefined;
    return {
      storage: authStorage,
      // A sign-in is the user's `login`; a model's tool call never opens a browser.
      interactive: attempt.interactive ? "connect" : false,
      signal: attempt.controller.signal,
      ...(openUrl ? { openUrl } : {}),
      ...(signInTimeoutMs === undefined ? {} : { signInTimeoutMs }),
    };
  }

  /** Calls off `record`'s attempt or connection, keeping the record (a sign-in or sign-out follows). */
  #closeCurrent(record: ServerRecord): void {
    const { connection, attempt } = record;
    record.quiet();
    delete record.connection;
    if (attempt && !attempt.outcome) attempt.controller.abort(removedError(record.name));
    if (connection) this.#parts.tasks.add(client().closeConnection(connection));
    if (attempt) this.#parts.tasks.add(attempt.done);
  }

  #isCurrent(record: ServerRecord, attempt: Attempt): boolean {
    return (
      this.#parts.table.holds(record) && record.attempt === attempt && !attempt.controller.signal.aborted
    );
  }

  /**
   * Waits until the cache reads of every attempt started so far are done. The
   * SDK and the transports (`@mcp-rt/client`) are loaded only then: on a warm
   * start the cached tools are handed over first, and the module load (longer
   * than the rest of the start path) overlaps with the servers starting.
   */
  async #afterCacheReads(attempt: Attempt): Promise<void> {
    // The attempts of one `connectServers` call are all started before this first await ends.
    await attempt.cached;
    while (this.#reads.size > 0) await Promise.all(this.#reads);
    // One more turn: a `connectServers` that passed on these reads returns, and its caller takes the tools, first.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Resolve, connect, watch, list: one attempt, which commits or fails. */
  async #pipeline(record: ServerRecord, attempt: Attempt): Promise<MCPServerConnection> {
    const { name } = record;
    const { signal } = attempt.controller;
    const timeoutMs = attempt.config.timeout ?? DEFAULT_SERVER_TIMEOUT_MS;
    let connection: MCPServerConnection | undefined;
    let watch: ConnectionWatch | undefined;
    try {
      await this.#afterCacheReads(attempt);
      connection = await openConnection(name, attempt.config, {
        cwd: this.#parts.cwd,
        signal,
        authStorage: this.#parts.authStorage,
        sourcePath: record.source?.path,
        maxMessageBytes: this.#parts.limits.maxMessageBytes,
        oauth: this.#oauth(attempt),
        onElicitation: this.#parts.options.onElicitation,
        onResolved: (resolved) => {
          if (this.#isCurrent(record, attempt)) {
            record.resolvedFingerprint = toolCacheFingerprint(name, resolved, this.#parts.cwd);
          }
        },
      });
      signal.throwIfAborted();
      // Watched from the handshake on, so that a tool change announced during the first list is not lost.
      watch = this.#watch(record, connection);
      record.watch = watch;
      record.phase = "listing";
      const remaining = Math.max(1, Math.round(timeoutMs - (performance.now() - attempt.startedAt)));
      // Resources and prompts are listed beside the tools; a failure there never fails the server
      // (listServerContent never rejects), and past a short grace the tools do not wait for them.
      const contentListing = listServerContent(connection, {
        ...this.#contentOptions(record),
        signal,
        timeout: remaining,
      });
      const serverTools = await client().listTools(connection, {
        ...this.#listOptions(record),
        signal,
        timeout: remaining,
      });
      const content = await settleWithin(() => contentListing, CONTENT_GRACE_MS);
      signal.throwIfAborted();
      if (!this.#isCurrent(record, attempt)) throw removedError(name);
      this.#commit(
        record,
        attempt,
        connection,
        serverTools,
        content.status === "ok" ? content.value : contentListing,
      );
      return connection;
    } catch (error) {
      // Nothing started for an attempt that failed or was called off may outlive it.
      watch?.stop();
      if (record.watch === watch) delete record.watch;
      if (connection)
        await client()
          .closeConnection(connection)
          .catch(() => {});
      const thrown = startError(name, error, signal, connection);
      const failure = McpRtError.isInstance(thrown) ? thrown : removedError(name);
      if (this.#isCurrent(record, attempt)) {
        if (attempt.reconnect && !isSignInRequired(failure)) {
          record.retrying(failure);
          this.#parts.options.logger?.debug(`Reconnecting MCP server "${name}" failed: ${failure.message}`);
          this.#retry(record);
        } else {
          this.fail(record, failure, attempt);
        }
      }
      throw failure;
    }
  }

  /** The attempt connected and listed: its live tools replace the server's slice (the live list wins). */
  #commit(
    record: ServerRecord,
    attempt: Attempt,
    connection: MCPServerConnection,
    serverTools: MCPToolDefinition[],
    content: Partial<ServerContent> | Promise<Partial<ServerContent>>,
  ): void {
    const { catalog, emitter, tasks, table } = this.#parts;
    const ms = Math.round(performance.now() - attempt.startedAt);
    record.connect(connection, serverTools, ms);
    const late = content instanceof Promise;
    // Late lists keep what stood in (cached, or the previous connection's) until they land.
    const contentChanged = late ? [] : record.setContent({ ...NO_CONTENT, ...content });
    if (this.#reconnects) this.#reconnects.connected(record);
    this.#health?.start();
    catalog.rebuild();
    emitter.emit("server:connected", { name: record.name, ms, toolCount: record.definitions.length });
    emitter.emit("tools:changed", { name: record.name });
    this.#announceContent(record, contentChanged);
    if (late) {
      tasks.add(
        content.then((listed) => {
          if (!table.holds(record) || record.connection !== connection) return;
          this.#announceContent(record, record.setContent({ ...NO_CONTENT, ...listed }));
          this.#writeCache(record, connection);
        }),
      );
    } else {
      this.#writeCache(record, connection);
    }
    this.#resubscribe(record, connection);
    record.watch?.activate();
  }

  /** Tells listeners which of a server's lists changed. */
  #announceContent(record: ServerRecord, changed: readonly ContentList[]): void {
    for (const list of changed) this.#parts.emitter.emit(`${list}:changed`, { name: record.name });
  }

  /** After a reconnect, the resources subscribed to before are subscribed to again (best effort). */
  #resubscribe(record: ServerRecord, connection: MCPServerConnection): void {
    for (const uri of record.subscriptions) {
      this.#parts.tasks.add(
        client()
          .subscribeResource(connection, uri)
          .catch((error: unknown) =>
            this.#parts.options.logger?.debug(
              `MCP server "${record.name}": subscribing again to ${uri} failed: ${errorMessage(error)}`,
            ),
          ),
      );
    }
  }

  /** The limits of a resource or prompt list, and where what they cut is logged (once per server). */
  #contentOptions(record: ServerRecord): Parameters<typeof listServerContent>[1] {
    const { toolLimits } = this.#parts.limits;
    const { logger } = this.#parts.options;
    return {
      maxItems: toolLimits.maxTools,
      maxDescriptionLength: toolLimits.maxDescriptionLength,
      logger,
      onLimit: (message) => {
        if (record.firstTime(message)) logger?.warn(message);
      },
    };
  }

  /** `notifications/resources|prompts/list_changed`: lists that again, if the connection is still the live one. */
  async #relistContent(
    record: ServerRecord,
    connection: MCPServerConnection,
    list: ContentList,
    signal: AbortSignal,
  ): Promise<void> {
    const content = await listServerContent(connection, {
      ...this.#contentOptions(record),
      signal,
      only: list,
    });
    if (signal.aborted || !this.#parts.table.holds(record) || record.connection !== connection) return;
    const changed = record.setContent(content);
    this.#announceContent(record, changed);
    if (changed.length > 0) this.#writeCache(record, connection);
  }

  /** Follows a new connection: its close, its errors, `list_changed` (rate-limited, logged once when it had to be). */
  #watch(record: ServerRecord, connection: MCPServerConnection): ConnectionWatch {
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

  /** The limits of a tool list, and where a breach goes: one warning per server and limit. */
  #listOptions(record: ServerRecord): {
    limits: ServerLimits["toolLimits"];
    onLimit(breach: ToolLimitBreach): void;
  } {
    return {
      limits: this.#parts.limits.toolLimits,
      onLimit: (breach) => {
        if (record.firstTime(breach.limit)) this.#parts.options.logger?.warn(breach.message);
      },
    };
  }

  /**
   * `notifications/tools/list_changed`: lists every page again and replaces
   * exactly this server's slice, if the connection is still its live one.
   */
  async #relist(record: ServerRecord, connection: MCPServerConnection, signal: AbortSignal): Promise<void> {
    const serverTools = await client().listTools(connection, { ...this.#listOptions(record), signal });
    if (signal.aborted || !this.#parts.table.holds(record) || record.connection !== connection) return;
    record.relisted(serverTools);
    this.#parts.catalog.rebuild();
    this.#parts.emitter.emit("tools:changed", { name: record.name });
    this.#writeCache(record, connection);
  }

  /**
   * Best-effort cache write of a server's full, unfiltered list. It starts on
   * the next event-loop turn, so that its validation and serialisation (about
   * 12 ms for 5000 tools) are not in the way of a `connectServers` about to
   * return; `disconnectAll` still waits for it.
   */
  #writeCache(record: ServerRecord, connection: MCPServerConnection): void {
    const { cache, cwd, tasks } = this.#parts;
    const { name, config, content, instructions } = record;
    const serverTools = [...record.listedTools];
    const { serverInfo } = connection;
    const write = cache.get().then(async (open) => {
      if (!open) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
      await open.set(name, config, serverTools, cwd, {
        serverInfo,
        resources: [...content.resources],
        resourceTemplates: [...content.resourceTemplates],
        prompts: [...content.prompts],
        ...(instructions === undefined ? {} : { instructions }),
      });
    });
    tasks.add(write);
  }

  #closed(record: ServerRecord, connection: MCPServerConnection, event: MCPConnectionCloseEvent): void {
    const error = event.error ?? new McpRtError("TRANSPORT_CLOSED", event.reason, { server: record.name });
    // A sign-in is the user's to give: no reconnect timer can fix it.
    if (isSignInRequired(error) && record.connection === connection) {
      this.signInLost(record, error);
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
    const message = this.dropError(record).message;
    if (this.#reconnects?.inOutage(record)) {
      options.logger?.debug(`${message}; still reconnecting`);
    } else if (record.attempt?.returned !== false) {
      options.logger?.warn(`${message}${reconnect ? "; reconnecting" : ""}`);
    }
    emitter.emit("server:disconnected", { name: record.name, reason: drop.reason });
    // A listener may have stopped or restarted it meanwhile.
    if (reconnect && table.holds(record) && !record.active) this.#retry(record);
  }

  /** Schedules the next automatic attempt of `record`, or gives up when its circuit breaker opens. */
  #retry(record: ServerRecord): void {
    if (!this.#reconnects) return;
    const step = this.#reconnects.retry(record, () => {
      if (this.#parts.table.holds(record) && !record.active)
        this.start(record, record.config, { reconnect: true });
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
    this.fail(record, error);
    this.#parts.options.logger?.warn(error.message);
  }
}

/** What an attempt of a server that was stopped while it connected fails with. */
export function removedError(name: string): McpRtError {
  return new McpRtError("NOT_CONNECTED", `MCP server "${name}" was disconnected while it was connecting`, {
    server: name,
  });
}
