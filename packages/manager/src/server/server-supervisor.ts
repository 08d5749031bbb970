import type { MCPConnectionCloseEvent, MCPServerConnection } from "@mcp-rt/client";
import { isSignInRequired } from "@mcp-rt/client/light";
import {
  type AuthStorage,
  type MCPServerConfig,
  type MCPToolDefinition,
  McpRtError,
  type SourceMeta,
} from "@mcp-rt/config";
import { abortError, errorMessage, monotonicMs } from "@mcp-rt/config/util";
import type { JudgedServer } from "../approvals/approval-keeper.js";
import type { MCPToolReview } from "../approvals/tool-review.js";
import { client, loadClient } from "../client-module.js";
import type { MCPNotWaitedFor, MCPServerProtocol } from "../manager-types.js";
import { Attempt, calledOffError, verdictToPass } from "./attempt.js";
import { resolveIdentity } from "./attempt-identity.js";
import { listCacheOptions } from "./cached-list.js";
import type { AttemptResult } from "./connect-and-list.js";
import { ConnectionWatch } from "./connection-watch.js";
import { ReconnectPolicy, type ReconnectStep } from "./reconnect-policy.js";
import {
  type ContentList,
  type GivenContent,
  listServerContent,
  NO_CONTENT,
  type ServerContent,
} from "./server-content.js";
import { contentListOptions, toolListOptions } from "./server-limits.js";
import { type Judgement, ServerRecord, type ServerView } from "./server-record.js";
import { dropError } from "./server-state.js";
import type { SupervisorContext } from "./supervisor-context.js";
import { filterServerTools } from "./tool-exposure.js";

/** Failures of a start that are the server's own (not a sign-in, a config or a stop): noted, so the next start does not wait. */
const FAILED_START_CODES: ReadonlySet<string> = new Set([
  "INIT_FAILED",
  "CONNECT_TIMEOUT",
  "TRANSPORT_CLOSED",
  "PROTOCOL_ERROR",
  "HTTP_ERROR",
  "LIMIT_EXCEEDED",
]);

/** Re-lists in a row held back by `minRelistIntervalMs` after which a server's tool changes are logged as a storm. */
const STORM_RELISTS = 3;

/** Where a judged list comes from: the server's name, content and instructions beside it (live or cached). */
interface JudgeFrom {
  serverInfoName: string | undefined;
  content: GivenContent;
  instructions: string | undefined;
}

/** How an attempt starts. */
export interface StartOptions {
  /** An automatic reconnect: no cache read, `server:reconnecting` instead of `server:connecting`. @default false */
  reconnect?: boolean;
  /** `login`: a remote server that needs a sign-in runs the browser step. @default false */
  interactive?: boolean;
}

/** A stopped server: whether it had tools, and what it had open, closing. */
export interface Retired {
  hadTools: boolean;
  closed: Promise<unknown>;
}

/**
 * One server's owner (docs/architecture.md, "The life of one server"): it
 * holds the server's state ({@link ServerRecord}, whose phase changes only
 * through the transition table) and is the only one that changes it. It
 * starts attempts (its context's `connectAndList`, which returns what it
 * came to and writes nothing), commits a listed one, fails a failed one;
 * once the server is live it watches the connection (re-lists on
 * `list_changed`, the cache write, subscriptions made again) and
 * reconnects it with backoff when it drops, until its circuit breaker gives
 * up; it signs in and out, restarts, and stops. Others read it through
 * {@link ServerView}.
 */
export class ServerSupervisor {
  readonly name: string;
  readonly #record: ServerRecord;
  readonly #context: SupervisorContext;
  /** True once stopped: what is still under way for it changes nothing. */
  #retired = false;
  /**
   * What listeners are to be told of a change made for many servers at once
   * (cached tools standing in, a stop), once every one of them changed:
   * `announce` tells it.
   */
  #news: { wasActive?: boolean; hadTools: boolean; content: readonly ContentList[] } | undefined;

  constructor(name: string, config: MCPServerConfig, context: SupervisorContext) {
    this.name = name;
    this.#record = new ServerRecord(name, config);
    this.#context = context;
  }

  /** The server's state, read-only. */
  get record(): ServerView {
    return this.#record;
  }

  /** Its latest config (a new one from discovery, or an equal one a reload keeps). */
  configure(config: MCPServerConfig): void {
    this.#record.configure(config);
  }

  /** Where its config came from. */
  from(source: SourceMeta): void {
    this.#record.from(source);
  }

  /** A call waits for the server while it queues for its start: it goes first. */
  hurry(): void {
    this.#context.pace.hurry(this.name);
  }

  /** Remembers a resource subscription, made again after a reconnect. */
  subscribe(uri: string): void {
    this.#record.subscribe(uri);
  }

  /** Forgets a resource subscription. */
  unsubscribe(uri: string): void {
    this.#record.unsubscribe(uri);
  }

  /**
   * Starts an attempt with its latest config, and its cache read, together.
   * An automatic reconnect reads no cache (the server's tools are still
   * there) and announces itself with `server:reconnecting` instead of
   * `server:connecting`. Starting on purpose ends a reconnect in progress.
   */
  start(how: StartOptions = {}): Attempt {
    const { settings, cache, emitter, pace, approvals } = this.#context;
    const reconnect = how.reconnect ?? false;
    if (!reconnect) {
      this.#record.endOutage();
      emitter.emit("server:connecting", { name: this.name });
    }
    const { config } = this.#record;
    const attempt = new Attempt({
      name: this.name,
      config,
      cache: reconnect ? null : cache.get(),
      cwd: settings.cwd,
      identity: resolveIdentity({
        name: this.name,
        config,
        cwd: settings.cwd,
        authStorage: settings.authStorage,
        user: settings.user,
      }),
      // A reconnect keeps what was read at the start; another start reads again (another agent may have approved).
      approvals: approvals.read(this.name, this.#record.source, !reconnect),
      reconnect,
      interactive: how.interactive ?? false,
    });
    // The record knows its attempt before the attempt's first step, which checks that it is still current.
    this.#record.start(attempt);
    attempt.follow(this.#run(attempt));
    pace.track(attempt);
    return attempt;
  }

  /**
   * The startup gate offers `cached` tools for `attempt`, still pending: they
   * stand in as deferred tools, with the cached resources, prompts and
   * instructions; listeners are told with {@link announce}. Returns whether
   * they were used: not when the attempt is no longer current or the server
   * is live (a late cache read never replaces live tools).
   */
  defer(attempt: Attempt, cached: readonly MCPToolDefinition[]): boolean {
    const record = this.#record;
    if (!this.#isCurrent(attempt) || record.connection) return false;
    const entry = attempt.cachedEntry;
    // A cached tool that is held is never handed over as a deferred one.
    const judged = this.#judge(cached, {
      serverInfoName: entry?.serverInfo?.name,
      content: entry ?? NO_CONTENT,
      instructions: entry?.instructions,
    });
    const hadTools = record.defer(cached, judged);
    if (hadTools) this.#context.catalog.invalidate();
    this.#news = { hadTools, content: entry ? record.deferContent(entry, judged) : [] };
    return true;
  }

  /**
   * The startup gate did not wait for `attempt`, which has no cached tools:
   * it is marked so (`notWaitedFor`). When the gate stopped waiting for it
   * (`ran-out`), that is noted in the cache, where its tools would be, so
   * that the next start does not wait for it either; not when the store did
   * not answer the read (an entry may be there). Its tools, once listed,
   * replace the note.
   */
  notWaitedFor(attempt: Attempt, reason: MCPNotWaitedFor["reason"], waitMs: number): void {
    const { cache, settings, tasks } = this.#context;
    if (!this.#isCurrent(attempt) || this.#record.connection) return;
    const failed = attempt.failedStartup;
    if (reason === "failed-before" && failed) {
      this.#record.notWaited({ reason, failure: { code: failed.code, message: failed.message } });
      return;
    }
    if (reason === "failed-before") return;
    const missed = reason === "missed-before" ? attempt.missedStartup?.waitMs : waitMs;
    this.#record.notWaited({ reason, waitMs: missed ?? waitMs });
    if (reason !== "ran-out" || !attempt.readAnswered || attempt.cachedEntry) return;
    const { name, config, facts } = attempt;
    tasks.add(
      cache
        .get()
        .then((open) =>
          open?.noteMissedStartup({ serverName: name, config, cwd: settings.cwd }, { waitMs, facts }),
        ),
    );
  }

  /**
   * The config or an attempt failed (`attempt`, when there was one): its
   * tools go, listeners are told. A server that needs a sign-in becomes
   * `needs-auth` instead of `failed`, and is never retried on a timer.
   */
  fail(error: McpRtError, attempt?: Attempt): void {
    const { emitter, settings } = this.#context;
    const record = this.#record;
    const signIn = isSignInRequired(error);
    const hadContent = record.setContent(NO_CONTENT);
    const hadTools = record.fail(error, signIn ? "needs-auth" : "failed");
    if (hadTools) this.#context.catalog.invalidate();
    if (signIn) emitter.emit("server:needs-auth", { name: this.name, error });
    else emitter.emit("server:failed", { name: this.name, error });
    if (hadTools) emitter.emit("tools:changed", { name: this.name });
    this.#announceContent(hadContent);
    if (attempt) this.#noteFailedStart(attempt, error);
    // A failure the caller already received in `errors` is not logged again.
    if (attempt?.returned) {
      settings.logger?.warn(
        signIn ? error.message : `MCP server "${this.name}" failed after startup: ${error.message}`,
      );
    }
  }

  /**
   * Notes in the cache that a start failed by itself (an exit, a refusal, a
   * timeout), so that the next start does not wait for the server: not for a
   * reconnect, a server whose cached tools stood in (the next start defers
   * them anyway), a store that did not answer the read, or a failure the user
   * must fix (a sign-in, a config, a `!command`), which shows at once.
   */
  #noteFailedStart(attempt: Attempt, error: McpRtError): void {
    if (attempt.reconnect || !attempt.readAnswered || attempt.cachedEntry) return;
    if (!FAILED_START_CODES.has(error.code)) return;
    const { cache, settings, tasks } = this.#context;
    const { name, config, facts } = attempt;
    const failure = { code: error.code, message: error.message };
    tasks.add(
      cache
        .get()
        .then((open) =>
          open?.noteFailedStartup({ serverName: name, config, cwd: settings.cwd }, { failure, facts }),
        ),
    );
  }

  /**
   * A call or the connection found that the live server needs a new sign-in
   * (its tokens could not be refreshed): the connection is closed and the
   * server waits for `login`.
   */
  signInLost(error: McpRtError): void {
    if (this.#retired || this.#record.phase === "needs-auth") return;
    this.#closeCurrent();
    this.fail(error);
  }

  /**
   * Signs the server in through the browser (its connection, if any, closed
   * first) and connects it. Resolves once it is connected and listed;
   * rejects with the attempt's `McpRtError`, or with an `AbortError` when
   * `signal` aborts.
   */
  async signIn(signal?: AbortSignal): Promise<MCPServerConnection> {
    this.#closeCurrent();
    const attempt = this.start({ interactive: true });
    const abort = (): void =>
      attempt.controller.abort(abortError(`Signing in to MCP server "${this.name}"`, signal?.reason));
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
    try {
      return await attempt.done;
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  }

  /**
   * Signs the server out: its stored tokens and client registration are
   * deleted, its connection is closed, and it waits for `login`. Returns
   * whether a sign-in was stored.
   */
  async signOut(storage: AuthStorage): Promise<boolean> {
    const found = await (await loadClient()).signOut(this.#record.config, storage);
    this.#closeCurrent();
    this.fail(
      new McpRtError(
        "SIGN_IN_REQUIRED",
        `MCP server "${this.name}" was signed out; sign in again with \`/mcp login ${this.name}\``,
        { server: this.name, details: { reason: "not-signed-in" } },
      ),
    );
    return found;
  }

  /** Starts the server again from scratch (its attempt or connection closed first), e.g. with a new API key. */
  restart(): Attempt {
    this.#closeCurrent();
    return this.start();
  }

  /** A health check found `connection` unresponsive: it is treated as dropped. */
  unhealthy(connection: MCPServerConnection, error: McpRtError): void {
    this.#dropped(connection, { reason: error.message, error, reconnect: true });
  }

  /**
   * Stops the server for good: calls off everything it has (its attempt,
   * watch, reconnect timer and connection); its tools go at once. Listeners
   * are told with {@link announce}. `closed` settles once what it had open
   * is closed.
   */
  retire(): Retired {
    const { tasks } = this.#context;
    const record = this.#record;
    const hadTools = record.definitions.length > 0;
    this.#news = { wasActive: record.active, hadTools, content: record.setContent(NO_CONTENT) };
    this.#retired = true;
    const connection = record.release();
    const { attempt } = record;
    // A settled attempt has nothing left to call off.
    if (attempt && !attempt.outcome) attempt.controller.abort(calledOffError(this.name));
    const closed = Promise.allSettled([connection && client().closeConnection(connection), attempt?.done]);
    // Tracked, so that a later disconnectAll also waits for closes already under way.
    tasks.add(closed);
    return { hadTools, closed };
  }

  /**
   * Why `attempt`, which connected, is no longer live when its
   * `connectServers` returns: the server dropped, and since then no other
   * attempt started, or only automatic reconnects. `undefined` while it is
   * up, and when it was called off or started again on purpose.
   */
  droppedSince(attempt: Attempt): McpRtError | undefined {
    const record = this.#record;
    if (!attempt.outcome?.ok || record.connection || attempt.controller.signal.aborted) return undefined;
    const latest = record.attempt;
    return latest === attempt || latest?.reconnect === true ? dropError(record) : undefined;
  }

  /**
   * Tells listeners what the last {@link defer} or {@link retire} changed
   * (once): the fleet calls it when every server of the change is done, so
   * that a listener reads the tools of all of them.
   */
  announce(): void {
    const news = this.#news;
    this.#news = undefined;
    if (!news) return;
    const { emitter } = this.#context;
    const { name } = this;
    if (news.wasActive) emitter.emit("server:disconnected", { name, reason: "disconnected by the caller" });
    if (news.hadTools) emitter.emit("tools:changed", { name });
    this.#announceContent(news.content);
  }

  /**
   * The user approves the server's held tools named `names` (all of them
   * when absent): recorded, then its tools are judged again and exposed.
   * Resolves with the names approved.
   *
   * @throws McpRtError `TOOL_NOT_FOUND` naming the held tools, for a name that is not held.
   */
  async approveHeld(names?: readonly string[]): Promise<string[]> {
    const chosen = this.#heldNamed(names);
    if (chosen.length === 0) return [];
    await this.#context.approvals.approve(this.#judged(), chosen);
    this.#rejudge();
    return chosen.map((tool) => tool.name);
  }

  /**
   * The user keeps holding the held tools named `names` (all when absent) as
   * they are: they stay held and are not asked about again until they change.
   *
   * @throws McpRtError `TOOL_NOT_FOUND` naming the held tools, for a name that is not held.
   */
  async keepHeld(names?: readonly string[]): Promise<string[]> {
    const chosen = this.#heldNamed(names);
    if (chosen.length === 0) return [];
    await this.#context.approvals.keep(this.#judged(), chosen);
    this.#rejudge();
    return chosen.map((tool) => tool.name);
  }

  /** What the user reviews: the held tools with their diffs, and what the poisoning check found. */
  async review(): Promise<MCPToolReview> {
    const { approvals } = this.#context;
    const record = this.#record;
    const judged = this.#judged();
    const { where } = approvals;
    return {
      server: this.name,
      ...approvals.policies(record.config, record.source),
      ...(where === undefined ? {} : { store: where }),
      ...(record.serverChange ? { serverChange: record.serverChange } : {}),
      held: await approvals.review(judged, record.held),
      findings: [...record.findings],
    };
  }

  /** The held definitions named `names` (every one when absent). */
  #heldNamed(names: readonly string[] | undefined): MCPToolDefinition[] {
    const { held } = this.#record;
    if (names === undefined) return held.map((tool) => tool.definition);
    const unknown = names.filter((name) => !held.some((tool) => tool.name === name));
    if (unknown.length > 0) {
      throw new McpRtError(
        "TOOL_NOT_FOUND",
        `MCP server "${this.name}" holds no tool named ${unknown.map((name) => `"${name}"`).join(", ")}; held: ${held.map((tool) => tool.name).join(", ") || "none"}`,
        { server: this.name },
      );
    }
    return held.filter((tool) => names.includes(tool.name)).map((tool) => tool.definition);
  }

  /** The server as the approvals judge it now (its offered tools, content and names). */
  #judged(tools: readonly MCPToolDefinition[] = this.#record.offered, from?: JudgeFrom): JudgedServer {
    const record = this.#record;
    const entry = record.attempt?.cachedEntry;
    const connection = record.connection;
    const content = from?.content ?? record.content;
    return {
      name: this.name,
      config: record.config,
      source: record.source,
      serverInfoName: from ? from.serverInfoName : (connection?.serverInfo?.name ?? entry?.serverInfo?.name),
      tools: filterServerTools(tools, record.config),
      prompts: content.prompts ?? [],
      resources: content.resources ?? [],
      resourceTemplates: content.resourceTemplates ?? [],
      instructions: from ? from.instructions : (connection?.instructions ?? entry?.instructions),
      otherTools: () => this.#context.otherTools(this.name),
    };
  }

  /** Judges `tools` (the server's full list, live or cached) against its approvals. */
  #judge(tools: readonly MCPToolDefinition[], from: JudgeFrom): Judgement {
    return this.#context.approvals.judge(this.#judged(tools, from));
  }

  /** After a decision of the user: the offered tools judged again; listeners told when the exposed ones changed. */
  #rejudge(): void {
    if (this.#retired) return;
    const judged = this.#context.approvals.judge(this.#judged());
    if (!this.#record.rejudged(judged)) return;
    this.#context.catalog.invalidate();
    this.#context.emitter.emit("tools:changed", { name: this.name });
  }

  /** The attempt itself, then what it came to: committed, retried, failed, or dropped when no longer current. */
  async #run(attempt: Attempt): Promise<MCPServerConnection> {
    const { settings, limits, pace } = this.#context;
    const record = this.#record;
    const slot = await pace.beforeConnect(attempt);
    const steps = this.#context.connectAndList(attempt, {
      settings,
      sourcePath: record.source?.path,
      // Connect with the era a connection already found (no probe), or the cache's.
      prior: () =>
        verdictToPass(record.lastEra?.config === attempt.config ? record.lastEra.verdict : attempt.storedEra),
      toolList: toolListOptions(record, limits, settings.logger),
      contentList: contentListOptions(record, limits, settings.logger),
    });
    let watch: ConnectionWatch | undefined;
    let step = await steps.next();
    while (!step.done) {
      // The server answered: its CPU-heavy start is over. A stale verdict asked anew ends the watch of the first connection.
      slot.release();
      record.unwatch(watch);
      watch = undefined;
      if (this.#isCurrent(attempt)) {
        record.resolved(step.value.resolvedFingerprint);
        watch = this.#watch(step.value.connection);
        record.handshake(watch);
      }
      step = await steps.next();
    }
    const result = step.value;
    slot.release();
    // Its tools are judged against its approvals, read while it connected.
    if (result.kind === "listed") await attempt.approvals;
    if (result.kind === "listed" && this.#isCurrent(attempt)) {
      this.#commit(attempt, result);
      return result.connection;
    }
    record.unwatch(watch);
    if (result.kind === "listed") {
      await client()
        .closeConnection(result.connection)
        .catch(() => {});
      throw calledOffError(this.name);
    }
    const { error } = result;
    if (this.#isCurrent(attempt)) {
      if (attempt.reconnect && result.kind === "failed") {
        record.retrying(error);
        settings.logger?.debug(`Reconnecting MCP server "${this.name}" failed: ${error.message}`);
        this.#retry();
      } else {
        this.fail(error, attempt);
      }
    }
    throw error;
  }

  /** The attempt connected and listed: its live tools replace the server's slice (the live list wins). */
  #commit(attempt: Attempt, listed: Extract<AttemptResult, { kind: "listed" }>): void {
    const { emitter } = this.#context;
    const record = this.#record;
    const { connection, content, contentFailures } = listed;
    const ms = Math.round(monotonicMs() - attempt.startedAt);
    const { queuedMs } = attempt;
    const judged = this.#judge(listed.tools, {
      serverInfoName: connection.serverInfo?.name,
      content: content instanceof Promise ? record.content : content,
      instructions: connection.instructions,
    });
    record.connect({ connection, tools: listed.tools, judged, connectedMs: ms, queuedMs });
    const late = content instanceof Promise;
    // Late lists keep what stood in (cached, or the previous connection's) until they land.
    const contentChanged = late ? [] : record.setContent({ ...NO_CONTENT, ...content });
    // Its reconnect counts start over once it stays up.
    record.outage?.policy.connected(monotonicMs());
    this.#context.catalog.invalidate();
    emitter.emit("server:connected", {
      name: this.name,
      ms,
      queuedMs,
      toolCount: record.definitions.length,
      protocol: record.protocol as MCPServerProtocol,
    });
    emitter.emit("tools:changed", { name: this.name });
    this.#announceContent(contentChanged);
    if (!late) this.#reportContentFailures(contentFailures);
    this.#adoptConnection(connection, late ? { content, failures: contentFailures } : null);
  }

  /** Says what failed of the lists beside the tools of a connection it kept, once each. */
  #reportContentFailures(failures: readonly string[]): void {
    for (const message of failures) this.#context.settings.logger?.warn(message);
  }

  /**
   * Takes over a committed connection: writes the cache (once late resources
   * and prompts are in, which are then applied), subscribes again to what
   * was subscribed to, and activates the watch.
   */
  #adoptConnection(
    connection: MCPServerConnection,
    lateContent: { content: Promise<Partial<ServerContent>>; failures: readonly string[] } | null,
  ): void {
    const record = this.#record;
    if (lateContent) {
      this.#context.tasks.add(
        lateContent.content.then((listed) => {
          if (!this.#isLive(connection)) return;
          this.#reportContentFailures(lateContent.failures);
          this.#announceContent(record.setContent({ ...NO_CONTENT, ...listed }));
          this.#writeCache(connection);
        }),
      );
    } else {
      this.#writeCache(connection);
    }
    this.#resubscribe(connection);
    record.activateWatch();
  }

  /** Follows a new connection: its close, its errors, `list_changed` (rate-limited, logged once when it had to be). */
  #watch(connection: MCPServerConnection): ConnectionWatch {
    const { settings, limits, emitter } = this.#context;
    const { logger } = settings;
    const { minRelistIntervalMs } = limits;
    return new ConnectionWatch({
      connection,
      onClose: (event) => this.#closed(connection, event),
      // The error names the server and what happened (a refused subscriptions/listen, stdout noise…).
      onError: (error) => logger?.debug(error.message, error),
      relist: (signal) => this.#relist(connection, signal),
      relistContent: (list, signal) => this.#relistContent(connection, list, signal),
      onResourceUpdated: (uri) => emitter.emit("resource:updated", { name: this.name, uri }),
      logger,
      minRelistIntervalMs,
      // A few quick changes are normal; a server still at it after three intervals is storming.
      onThrottle: (inARow) => {
        if (inARow < STORM_RELISTS || !this.#record.firstWarning("minRelistIntervalMs")) return;
        logger?.warn(
          `MCP server "${this.name}" announces tool changes faster than once per ${minRelistIntervalMs} ms; its tools are listed again at most that often (limit minRelistIntervalMs)`,
        );
      },
    });
  }

  /** After a reconnect, the resources subscribed to before are subscribed to again (best effort). */
  #resubscribe(connection: MCPServerConnection): void {
    const { tasks, settings } = this.#context;
    for (const uri of this.#record.subscriptions) {
      tasks.add(
        client()
          .subscribeResource(connection, { uri })
          .catch((error: unknown) =>
            settings.logger?.debug(
              `MCP server "${this.name}": subscribing again to ${uri} failed: ${errorMessage(error)}`,
            ),
          ),
      );
    }
  }

  /**
   * `notifications/tools/list_changed`: lists every page again and replaces
   * exactly this server's slice, if the connection is still its live one.
   */
  async #relist(connection: MCPServerConnection, signal: AbortSignal): Promise<void> {
    const { limits, settings, emitter } = this.#context;
    const tools = await client().listTools(connection, {
      ...toolListOptions(this.#record, limits, settings.logger),
      signal,
    });
    if (signal.aborted || !this.#isLive(connection)) return;
    await this.#context.approvals.read(this.name, this.#record.source, false);
    if (!this.#isLive(connection)) return;
    const judged = this.#judge(tools, {
      serverInfoName: connection.serverInfo?.name,
      content: this.#record.content,
      instructions: connection.instructions,
    });
    this.#record.relisted(tools, judged);
    this.#context.catalog.invalidate();
    emitter.emit("tools:changed", { name: this.name });
    this.#writeCache(connection);
  }

  /** `notifications/resources|prompts/list_changed`: lists that again, if the connection is still the live one. */
  async #relistContent(
    connection: MCPServerConnection,
    list: ContentList,
    signal: AbortSignal,
  ): Promise<void> {
    const { limits, settings } = this.#context;
    const content = await listServerContent(connection, {
      ...contentListOptions(this.#record, limits, settings.logger),
      signal,
      only: list,
    });
    if (signal.aborted || !this.#isLive(connection)) return;
    const changed = this.#record.setContent(content);
    this.#announceContent(changed);
    if (changed.length > 0) this.#writeCache(connection);
  }

  /**
   * Best-effort cache write of the server's full, unfiltered list, off the
   * start path: it starts when the start's pace allows. `disconnectAll`
   * still waits for it.
   */
  #writeCache(connection: MCPServerConnection): void {
    const { cache, settings, tasks, pace } = this.#context;
    const { name, config, content, instructions, startMs } = this.#record;
    const tools = [...this.#record.listedTools];
    const { serverInfo, eraVerdict } = connection;
    const write = cache.get().then(async (open) => {
      if (!open) return;
      await pace.beforeCacheWrite();
      await open.set(
        { serverName: name, config, cwd: settings.cwd },
        {
          tools,
          serverInfo,
          resources: [...content.resources],
          resourceTemplates: [...content.resourceTemplates],
          prompts: [...content.prompts],
          ...(instructions === undefined ? {} : { instructions }),
          ...(startMs === undefined ? {} : { startMs }),
          era: eraVerdict,
          ...listCacheOptions(connection),
        },
      );
    });
    tasks.add(write);
  }

  #closed(connection: MCPServerConnection, event: MCPConnectionCloseEvent): void {
    const error = event.error ?? new McpRtError("TRANSPORT_CLOSED", event.reason, { server: this.name });
    // A sign-in is the user's to give: no reconnect timer can fix it.
    if (isSignInRequired(error) && this.#record.connection === connection) {
      this.signInLost(error);
      return;
    }
    // A close the client asked for (`expected`) is someone's decision: it is not undone.
    this.#dropped(connection, { reason: event.reason, error, reconnect: !event.expected });
  }

  /**
   * A live connection went away (its transport closed, or it failed a health
   * check): the server leaves `connected` at once, its tools stay but fail
   * fast, what is left of it is reaped, and it is reconnected unless
   * reconnecting is off.
   */
  #dropped(
    connection: MCPServerConnection,
    drop: { reason: string; error: McpRtError; reconnect: boolean },
  ): void {
    const { tasks, emitter, settings } = this.#context;
    const record = this.#record;
    if (!this.#isLive(connection)) return;
    const reconnect = drop.reconnect && this.#context.reconnect !== null;
    record.drop(drop.reason, drop.error, reconnect);
    // Reaps what is left of the server (its process group) even though it went away on its own.
    tasks.add(client().closeConnection(connection));
    // A drop before `connectServers` returned is reported in its `errors` instead; a server
    // that keeps dying while it is being reconnected is logged once, when the breaker opens.
    const message = dropError(record).message;
    if (record.outage?.policy.inOutage(monotonicMs())) {
      settings.logger?.debug(`${message}; still reconnecting`);
    } else if (record.attempt?.returned !== false) {
      settings.logger?.warn(`${message}${reconnect ? "; reconnecting" : ""}`);
    }
    emitter.emit("server:disconnected", { name: this.name, reason: drop.reason });
    // A listener may have stopped or restarted it meanwhile.
    if (reconnect && !this.#retired && !record.active) this.#retry();
  }

  /**
   * Schedules the next automatic attempt, or gives up when the circuit
   * breaker opens. The policy outlives a successful reconnect (to notice a
   * server that keeps dying) until the outage ends: the server was stopped,
   * or connected on purpose.
   */
  #retry(): void {
    const options = this.#context.reconnect;
    if (!options) return;
    const record = this.#record;
    const outage = record.outageOf(() => new ReconnectPolicy(options));
    outage.cancel();
    const step = outage.policy.next(monotonicMs());
    if (!step.retry) {
      record.endOutage();
      this.#giveUp(step);
      return;
    }
    outage.schedule(step.delayMs, () => {
      if (record.outage === outage && !this.#retired && !record.active) this.start({ reconnect: true });
    });
    this.#context.emitter.emit("server:reconnecting", {
      name: this.name,
      attempt: step.attempt,
      delayMs: step.delayMs,
    });
  }

  /** The circuit breaker opened: the server is `failed` until it is connected on purpose. */
  #giveUp(step: Extract<ReconnectStep, { retry: false }>): void {
    const { name } = this;
    const last = this.#record.lastError;
    const error = new McpRtError(
      last?.code ?? "TRANSPORT_CLOSED",
      `MCP server "${name}" did not come back after ${step.attempts} reconnect attempts (${step.failedBursts} failed bursts); gave up. Last error: ${last?.message ?? "unknown"}. Fix it, then connect it again (e.g. /mcp reload)`,
      {
        server: name,
        cause: last,
        ...(last?.stderrTail ? { stderrTail: last.stderrTail } : {}),
      },
    );
    this.fail(error);
    this.#context.settings.logger?.warn(error.message);
  }

  /** Calls off its attempt or connection, keeping the server (a sign-in, sign-out or restart follows). */
  #closeCurrent(): void {
    const { tasks } = this.#context;
    const { attempt } = this.#record;
    const connection = this.#record.release();
    if (attempt && !attempt.outcome) attempt.controller.abort(calledOffError(this.name));
    if (connection) tasks.add(client().closeConnection(connection));
    if (attempt) tasks.add(attempt.done);
  }

  #announceContent(changed: readonly ContentList[]): void {
    for (const list of changed) this.#context.emitter.emit(`${list}:changed`, { name: this.name });
  }

  /** True while `attempt` is the server's latest one and was not called off. */
  #isCurrent(attempt: Attempt): boolean {
    return !this.#retired && this.#record.attempt === attempt && !attempt.controller.signal.aborted;
  }

  /** True while `connection` is the server's live one. */
  #isLive(connection: MCPServerConnection): boolean {
    return !this.#retired && this.#record.connection === connection;
  }
}
