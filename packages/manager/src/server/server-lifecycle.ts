import { toolCacheFingerprint } from "@mcp-rt/cache";
import type { MCPEraVerdict, MCPServerConnection, OAuthOptions } from "@mcp-rt/client";
import { isSignInRequired } from "@mcp-rt/client/light";
import { type AuthStorage, type MCPServerConfig, type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import { abortError, monotonicMs, settleWithin, type TaskGroup } from "@mcp-rt/config/util";
import { client, loadClient } from "../client-module.js";
import type { TypedEmitter } from "../event-emitter.js";
import type { ServerTable } from "../fleet/server-table.js";
import type { StartPace } from "../fleet/start-pace.js";
import type { DeferOffer } from "../fleet/startup-gate.js";
import type { ManagerCache } from "../manager-cache.js";
import type {
  MCPManagerEvents,
  MCPManagerOptions,
  MCPNotWaitedFor,
  MCPServerProtocol,
} from "../manager-types.js";
import type { ToolCatalog } from "../tools/tool-catalog.js";
import { Attempt } from "./attempt.js";
import type { ConnectionWatch } from "./connection-watch.js";
import { isStaleModernVerdict, verdictToPass } from "./era-verdict.js";
import { DEFAULT_SERVER_TIMEOUT_MS, openConnection, startError } from "./open-connection.js";
import { type ContentList, listServerContent, NO_CONTENT, type ServerContent } from "./server-content.js";
import { contentListOptions, type ServerLimits, toolListOptions } from "./server-limits.js";
import type { ServerRecord } from "./server-record.js";
import { announceContent, ServerUpkeep } from "./server-upkeep.js";

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
  /** The start path's speed measures, shared by every server of the fleet. */
  pace: StartPace;
}

/**
 * How long a server's tools wait, once listed, for its resources and prompts;
 * later lists are applied when they land (`resources:changed`, `prompts:changed`).
 */
const CONTENT_GRACE_MS = 1000;

/** What a stopped server had: what its stop tells listeners. */
interface Stopped {
  wasActive: boolean;
  hadTools: boolean;
  hadContent: ContentList[];
}

/** How an attempt starts. */
export interface StartOptions {
  /** An automatic reconnect: no cache read, `server:reconnecting` instead of `server:connecting`. @default false */
  reconnect?: boolean;
  /** `login`: a remote server that needs a sign-in runs the browser step. @default false */
  interactive?: boolean;
}

/**
 * The life of each server, from start to stop (docs/architecture.md): an
 * attempt resolves its config, connects and lists its tools; a success is
 * committed (live tools, then the {@link ServerUpkeep} takes over the
 * connection: cache write, watch, drops and automatic attempts); a failure
 * marks it failed; a sign-in closes what it has and starts again, a
 * sign-out closes it to wait for `login`; stopping closes whatever it has.
 */
export class ServerLifecycle {
  readonly #parts: ServerLifecycleParts;
  /** What happens once a connection is live: watch, re-lists, cache write, drops and retries. */
  readonly #upkeep: ServerUpkeep;

  constructor(parts: ServerLifecycleParts) {
    this.#parts = parts;
    this.#upkeep = new ServerUpkeep({
      ...parts,
      reconnect: (record) => this.start(record, record.config, { reconnect: true }),
      fail: (record, error) => this.fail(record, error),
      signInLost: (record, error) => this.signInLost(record, error),
    });
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
      record.endOutage();
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
    this.#parts.pace.track(attempt);
    return attempt;
  }

  /**
   * The startup gate offers the cached tools of the attempts still pending:
   * they stand in as deferred tools, named together in one rebuild. Returns
   * the attempts whose cached tools were used (those still current).
   */
  defer(offers: readonly DeferOffer[]): ReadonlySet<Attempt> {
    const { table, catalog, emitter } = this.#parts;
    const used = new Set<Attempt>();
    const deferred: { record: ServerRecord; attempt: Attempt; hasTools: boolean }[] = [];
    for (const { attempt, cached } of offers) {
      const record = table.get(attempt.name);
      // A late cache read never replaces live tools.
      if (!record || !this.#isCurrent(record, attempt) || record.connection) continue;
      used.add(attempt);
      deferred.push({ record, attempt, hasTools: record.defer(cached) });
    }
    if (deferred.some(({ hasTools }) => hasTools)) catalog.invalidate();
    for (const { record, attempt, hasTools } of deferred) {
      if (hasTools) emitter.emit("tools:changed", { name: record.name });
      const entry = attempt.cachedEntry;
      if (entry) announceContent(emitter, record, record.deferContent(entry));
    }
    return used;
  }

  /**
   * The startup gate did not wait for these attempts, which have no cached
   * tools: they are marked so (`notWaitedFor`). Those it stopped waiting for
   * (`ran-out`) are noted in the cache, where their tools would be, so that
   * the next start does not wait for them either; not when the store did not
   * answer the read (an entry may be there). Their tools, once listed,
   * replace the note.
   */
  notWaitedFor(attempts: readonly Attempt[], reason: MCPNotWaitedFor["reason"], waitMs: number): void {
    const { table, cache, cwd, tasks } = this.#parts;
    for (const attempt of attempts) {
      const record = table.get(attempt.name);
      if (!record || !this.#isCurrent(record, attempt) || record.connection) continue;
      const missed = reason === "missed-before" ? attempt.missedStartup?.waitMs : waitMs;
      record.notWaited({ reason, waitMs: missed ?? waitMs });
      if (reason !== "ran-out" || !attempt.readAnswered || attempt.cachedEntry) continue;
      const { name, config } = attempt;
      tasks.add(
        cache.get().then((open) => open?.noteMissedStartup({ serverName: name, config, cwd }, { waitMs })),
      );
    }
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
    if (hadTools) catalog.invalidate();
    if (signIn) emitter.emit("server:needs-auth", { name: record.name, error });
    else emitter.emit("server:failed", { name: record.name, error });
    if (hadTools) emitter.emit("tools:changed", { name: record.name });
    announceContent(this.#parts.emitter, record, hadContent);
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
   * Stops `record`: removes it from the table and calls off everything it
   * has (its attempt, watch, reconnect timer and connection); its tools go at
   * once and listeners are told. Resolves once what it had open is closed.
   */
  stop(record: ServerRecord): Promise<unknown> {
    const stopped = this.#callOff(record);
    if (stopped.hadTools) this.#parts.catalog.invalidate();
    this.#announceStopped(record.name, stopped);
    return stopped.closed;
  }

  /**
   * Stops every server, rebuilding the tools once: no ping timer is left
   * (reconnect timers go with their records). What they had open closes in
   * the background (`tasks`).
   */
  stopAll(): void {
    const { table, catalog } = this.#parts;
    const stopped = table.records().map((record) => ({ name: record.name, ...this.#callOff(record) }));
    this.#upkeep.stop();
    catalog.invalidate();
    for (const entry of stopped) this.#announceStopped(entry.name, entry);
  }

  /**
   * Removes `record` from the table and calls off everything it has: its
   * attempt, watch, reconnect timer and connection. The tools are not rebuilt
   * here (the caller does it once for many). `closed` settles once what it
   * had open is closed.
   */
  #callOff(record: ServerRecord): Stopped & { closed: Promise<unknown> } {
    const { table, tasks } = this.#parts;
    const wasActive = record.active;
    const hadTools = record.definitions.length > 0;
    const hadContent = record.setContent(NO_CONTENT);
    if (table.holds(record)) table.forget(record.name);
    const connection = record.release();
    const { attempt } = record;
    // A settled attempt has nothing left to call off.
    if (attempt && !attempt.outcome) attempt.controller.abort(removedError(record.name));
    const closed = Promise.allSettled([connection && client().closeConnection(connection), attempt?.done]);
    // Tracked, so that a later disconnectAll also waits for closes already under way.
    tasks.add(closed);
    return { wasActive, hadTools, hadContent, closed };
  }

  #announceStopped(name: string, stopped: Stopped): void {
    const { emitter } = this.#parts;
    if (stopped.wasActive)
      emitter.emit("server:disconnected", { name, reason: "disconnected by the caller" });
    if (stopped.hadTools) emitter.emit("tools:changed", { name });
    for (const list of stopped.hadContent) emitter.emit(`${list}:changed`, { name });
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
    const { attempt } = record;
    const connection = record.release();
    if (attempt && !attempt.outcome) attempt.controller.abort(removedError(record.name));
    if (connection) this.#parts.tasks.add(client().closeConnection(connection));
    if (attempt) this.#parts.tasks.add(attempt.done);
  }

  #isCurrent(record: ServerRecord, attempt: Attempt): boolean {
    return (
      this.#parts.table.holds(record) && record.attempt === attempt && !attempt.controller.signal.aborted
    );
  }

  /** Resolve, connect, watch, list: one attempt, which commits or fails. */
  async #pipeline(record: ServerRecord, attempt: Attempt): Promise<MCPServerConnection> {
    const { name } = record;
    const { signal } = attempt.controller;
    const timeoutMs = attempt.config.timeout ?? DEFAULT_SERVER_TIMEOUT_MS;
    let connection: MCPServerConnection | undefined;
    let watch: ConnectionWatch | undefined;
    // Connect with the era a connection already found (no probe); a stale modern one is asked again, once.
    const connectAndList = async (prior: MCPEraVerdict | undefined) => {
      connection = await openConnection(name, attempt.config, {
        cwd: this.#parts.cwd,
        signal,
        authStorage: this.#parts.authStorage,
        sourcePath: record.source?.path,
        maxMessageBytes: this.#parts.limits.maxMessageBytes,
        oauth: this.#oauth(attempt),
        onElicitation: this.#parts.options.onElicitation,
        prior,
        onResolved: (resolved) => {
          if (this.#isCurrent(record, attempt)) {
            record.resolved(
              toolCacheFingerprint({ serverName: name, config: resolved, cwd: this.#parts.cwd }),
            );
          }
        },
      });
      signal.throwIfAborted();
      // Watched from the handshake on, so that a tool change announced during the first list is not lost.
      watch = this.#upkeep.watch(record, connection);
      record.handshake(watch);
      const connectMs = Math.round(monotonicMs() - attempt.startedAt);
      const remaining = Math.max(1, timeoutMs - connectMs);
      // Resources and prompts are listed beside the tools; a failure there never fails the server
      // (listServerContent never rejects), and past a short grace the tools do not wait for them.
      const contentListing = listServerContent(connection, {
        ...contentListOptions(record, this.#parts.limits, this.#parts.options.logger),
        signal,
        timeout: remaining,
      });
      const serverTools = await client().listTools(connection, {
        ...toolListOptions(record, this.#parts.limits, this.#parts.options.logger),
        signal,
        timeout: remaining,
        connectMs,
      });
      return { connection, serverTools, contentListing };
    };
    try {
      await this.#parts.pace.afterCacheReads(attempt);
      const stored =
        record.lastEra?.config === attempt.config ? record.lastEra.verdict : attempt.cachedEntry?.era;
      const prior = verdictToPass(stored);
      let listed: Awaited<ReturnType<typeof connectAndList>>;
      try {
        listed = await connectAndList(prior);
      } catch (error) {
        const stale = connection;
        if (!stale || signal.aborted || !isStaleModernVerdict(stale, error)) throw error;
        this.#parts.options.logger?.debug(
          `MCP server "${name}" no longer speaks ${stale.protocolVersion} as stored; asking it again`,
        );
        record.unwatch(watch);
        connection = undefined;
        await client()
          .closeConnection(stale)
          .catch(() => {});
        listed = await connectAndList(undefined);
      }
      const { serverTools, contentListing } = listed;
      connection = listed.connection;
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
      record.unwatch(watch);
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
          this.#upkeep.retry(record);
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
    const { catalog, emitter } = this.#parts;
    const ms = Math.round(monotonicMs() - attempt.startedAt);
    record.connect(connection, serverTools, ms);
    const late = content instanceof Promise;
    // Late lists keep what stood in (cached, or the previous connection's) until they land.
    const contentChanged = late ? [] : record.setContent({ ...NO_CONTENT, ...content });
    this.#upkeep.connected(record);
    catalog.invalidate();
    emitter.emit("server:connected", {
      name: record.name,
      ms,
      toolCount: record.definitions.length,
      protocol: record.protocol as MCPServerProtocol,
    });
    emitter.emit("tools:changed", { name: record.name });
    announceContent(emitter, record, contentChanged);
    this.#upkeep.takeOver(record, connection, late ? content : null);
  }
}

/** What an attempt of a server that was stopped while it connected fails with. */
export function removedError(name: string): McpRtError {
  return new McpRtError("NOT_CONNECTED", `MCP server "${name}" was disconnected while it was connecting`, {
    server: name,
  });
}
