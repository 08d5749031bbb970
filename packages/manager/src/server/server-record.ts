import { toolCacheFingerprint } from "@mcp-rt/cache";
import type { MCPEraVerdict, MCPServerConnection } from "@mcp-rt/client";
import type { MCPServerConfig, MCPToolDefinition, McpRtError, SourceMeta } from "@mcp-rt/config";
import type { ApprovalVerdict, MCPHeldTool, MCPServerChange } from "../approvals/approval-check.js";
import type { MCPPoisoningFinding } from "../approvals/poisoning-scan.js";
import type { MCPConnectionStatus, MCPNotWaitedFor, MCPServerProtocol } from "../manager-types.js";
import type { Attempt } from "./attempt.js";
import type { ConnectionWatch } from "./connection-watch.js";
import { Outage } from "./outage.js";
import type { ReconnectPolicy } from "./reconnect-policy.js";
import {
  type ContentList,
  capInstructions,
  type GivenContent,
  mergeContent,
  NO_CONTENT,
  type ServerContent,
} from "./server-content.js";
import { nextPhase, type ServerEvent, type ServerPhase } from "./server-phase.js";
import { appOnlyToolNames, filterServerTools } from "./tool-exposure.js";

/** What of an approvals verdict a record keeps. */
export type Judgement = Pick<ApprovalVerdict, "held" | "findings" | "serverChange" | "withholdInstructions">;

/** The verdict of a server nobody judged: nothing held. */
export const NOTHING_HELD: Judgement = Object.freeze({
  held: [],
  findings: [],
  serverChange: undefined,
  withholdInstructions: false,
});

/**
 * Everything the manager knows of one server besides its phase, in one
 * object: the fields of its {@link ServerRecord}, which everyone else reads
 * through {@link ServerView}.
 */
export interface ServerRecordState {
  /** The config name. */
  readonly name: string;
  /** The latest unresolved config. */
  config: MCPServerConfig;
  /** Where the config came from, when known. */
  source: SourceMeta | undefined;
  /** The latest attempt to connect (first, on purpose, or automatic). */
  attempt: Attempt | undefined;
  /** The live connection, while `connected`. */
  connection: MCPServerConnection | undefined;
  /** The exposed tool definitions (filtered, less those held): live, or from the cache while `deferred`. */
  definitions: readonly MCPToolDefinition[];
  /** The full tool list last judged (live, or cached while `deferred`): judged again after an approval. */
  offered: readonly MCPToolDefinition[];
  /** Tools kept from the model until the user approves them (changed, new, or poisoned). */
  held: readonly MCPHeldTool[];
  /** What the poisoning check found in what the server offers now. */
  findings: readonly MCPPoisoningFinding[];
  /** What changed of the server itself since its tools were approved. */
  serverChange: MCPServerChange | undefined;
  /** Tools it offers for an app's UI only (MCP Apps visibility without `"model"`): never exposed. */
  appOnlyTools: readonly string[];
  /** The server's full, unfiltered tool list as last listed live: what the cache keeps. */
  listedTools: readonly MCPToolDefinition[];
  /** True while the definitions come from the cache. */
  deferred: boolean;
  /** Its resources, resource templates and prompts: live, or from the cache while `deferred`. */
  content: ServerContent;
  /** Its `instructions` from `initialize` (capped at 2048 characters, with a note when cut): live or cached. */
  instructions: string | undefined;
  /** The URIs subscribed to with `subscribeResource`: subscribed again after a reconnect. */
  subscriptions: ReadonlySet<string>;
  /** How long its last start took, queueing included, once connected. */
  connectedMs: number | undefined;
  /** How long its last start waited for a start slot, once connected. */
  queuedMs: number | undefined;
  /** The era its last connection found, and the config it was found with: a reconnect with that config sends no probe. */
  lastEra: { config: MCPServerConfig; verdict: MCPEraVerdict } | undefined;
  /** The era and revision its last connection speaks, and how they were decided. */
  protocol: MCPServerProtocol | undefined;
  /** Why the startup gate did not wait for the current attempt, which has no cached tools. */
  notWaitedFor: MCPNotWaitedFor | undefined;
  /** The last failure or drop. */
  lastError: McpRtError | undefined;
  /** Why its live connection went away, until it is connected again. */
  disconnectReason: string | undefined;
  /**
   * The fingerprint of what the current attempt resolved and handed to the
   * server (env, args, headers after `!cmd` values and API keys), once it did:
   * a reload compares it to see whether those values changed.
   */
  resolvedFingerprint: string | undefined;
}

/** A server as the rest of the manager reads it: the record's state, read-only, its phase and what follows from them. */
export type ServerView = Readonly<ServerRecordState> &
  Pick<
    ServerRecord,
    | "phase"
    | "status"
    | "active"
    | "inOutage"
    | "reconnectAttempt"
    | "toolNames"
    | "started"
    | "startMs"
    | "runsConfig"
  >;

/**
 * What gives a record its fields: one {@link ServerRecordState}, each field
 * declared once (above) and read-only to everyone. The record writes them
 * only through its `#set`, so a field needs no getter of its own.
 */
const StateFields = class {
  constructor(state: ServerRecordState) {
    Object.assign(this, state);
  }
} as new (
  state: ServerRecordState,
) => Readonly<ServerRecordState>;

/**
 * Everything the manager knows of one server, in one place and written
 * only here, on behalf of its `ServerSupervisor` (the one holder of a
 * writable record): its state (one {@link ServerRecordState}: its config and
 * source, the attempt under way, the live connection, its tool slice, its
 * last error…), its phase, and what it holds to follow the server (the
 * watch of the connection, the reconnect bookkeeping). Every status the
 * manager reports is derived from it (`server-state.ts`). Its phase changes
 * only through the transition table (`server-phase.ts`, `#enter`): a method
 * whose event the table does not allow in the current phase changes nothing
 * and returns `false`. The rest of its state changes only through `#set`.
 */
export class ServerRecord extends StateFields {
  #phase: ServerPhase = "idle";
  #watch: ConnectionWatch | undefined;
  #outage: Outage | undefined;
  /** The names of `definitions`, for the list they were built from. */
  #toolNames?: { of: readonly MCPToolDefinition[]; names: ReadonlySet<string> };
  /** The fingerprint of `config`, for the config it was made of. */
  #fingerprint?: { of: MCPServerConfig; value: string };
  /** The limits it passed that were logged already: each is logged once. */
  readonly #warned = new Set<string>();

  constructor(name: string, config: MCPServerConfig) {
    super({
      name,
      config,
      source: undefined,
      attempt: undefined,
      connection: undefined,
      definitions: [],
      offered: [],
      held: [],
      findings: [],
      serverChange: undefined,
      appOnlyTools: [],
      listedTools: [],
      deferred: false,
      content: NO_CONTENT,
      instructions: undefined,
      subscriptions: new Set(),
      connectedMs: undefined,
      queuedMs: undefined,
      lastEra: undefined,
      protocol: undefined,
      notWaitedFor: undefined,
      lastError: undefined,
      disconnectReason: undefined,
      resolvedFingerprint: undefined,
    });
  }

  /** Where the server is in its life. */
  get phase(): ServerPhase {
    return this.#phase;
  }

  /** Reconnect bookkeeping, from a drop until the server is stopped or connected on purpose. */
  get outage(): Outage | undefined {
    return this.#outage;
  }

  /**
   * How long its last start took from its launch until its tools were
   * listed (not the time it queued), once connected: the next start
   * launches servers that came up fast first.
   */
  get startMs(): number | undefined {
    if (this.connectedMs === undefined) return undefined;
    return Math.max(0, this.connectedMs - (this.queuedMs ?? 0));
  }

  /** The design document's three statuses: `connected`, `connecting` (an attempt under way), else `disconnected`. */
  get status(): MCPConnectionStatus {
    if (this.#phase === "connected") return "connected";
    if (this.#phase === "connecting" || this.#phase === "listing") return "connecting";
    return "disconnected";
  }

  /** True while it is connected or an attempt of it is under way. */
  get active(): boolean {
    return this.status !== "disconnected";
  }

  /** True from a drop until it is back, given up, or stopped: backing off before an automatic attempt, or in one. */
  get inOutage(): boolean {
    return (
      this.#phase === "backing-off" ||
      (this.active && this.#phase !== "connected" && !!this.attempt?.reconnect)
    );
  }

  /** While it is in an outage: the number of the attempt running or scheduled (1, 2, …). */
  get reconnectAttempt(): number | undefined {
    return this.inOutage ? this.#outage?.policy.attempts : undefined;
  }

  /**
   * The names of `definitions`, as a set: built once per tool list, so that a
   * call checks its tool in O(1) even on a server with thousands of tools.
   */
  get toolNames(): ReadonlySet<string> {
    if (this.#toolNames?.of !== this.definitions) {
      this.#toolNames = { of: this.definitions, names: new Set(this.definitions.map((tool) => tool.name)) };
    }
    return this.#toolNames.names;
  }

  /** True once it was started (even if it failed at once): not merely remembered with `enabled: false`. */
  get started(): boolean {
    return this.attempt !== undefined || this.#phase !== "idle";
  }

  /**
   * Whether it runs with `config`, judged as the tool cache keys entries: the
   * fingerprint of the unresolved config (and, for stdio, its folder).
   */
  runsConfig(config: MCPServerConfig, cwd: string): boolean {
    if (this.#fingerprint?.of !== this.config) {
      this.#fingerprint = {
        of: this.config,
        value: toolCacheFingerprint({ serverName: this.name, config: this.config, cwd }),
      };
    }
    return this.#fingerprint.value === toolCacheFingerprint({ serverName: this.name, config, cwd });
  }

  /** True the first time it is asked about `what` (a limit it passed): when to log the warning, once per server. */
  firstWarning(what: string): boolean {
    if (this.#warned.has(what)) return false;
    this.#warned.add(what);
    return true;
  }

  /** The one place the phase changes: by the table, or not at all. */
  #enter(event: ServerEvent): boolean {
    const next = nextPhase(this.#phase, event);
    if (next === undefined) return false;
    this.#phase = next;
    return true;
  }

  /** The one place the rest of the state changes. */
  #set(change: Partial<Omit<ServerRecordState, "name">>): void {
    Object.assign(this, change);
  }

  /** Its latest config (a new one from discovery, or an equal one a reload keeps). */
  configure(config: MCPServerConfig): void {
    this.#set({ config });
  }

  /** Where its config came from. */
  from(source: SourceMeta): void {
    this.#set({ source });
  }

  /** A new attempt starts: it is `connecting`. */
  start(attempt: Attempt): boolean {
    if (!this.#enter("start")) return false;
    this.#set({ attempt, config: attempt.config, resolvedFingerprint: undefined, notWaitedFor: undefined });
    return true;
  }

  /** What the current attempt resolved and handed to the server, as a fingerprint. */
  resolved(fingerprint: string): void {
    this.#set({ resolvedFingerprint: fingerprint });
  }

  /** The attempt's handshake succeeded: it is `listing`, and `watch` follows its connection from now on. */
  handshake(watch: ConnectionWatch): boolean {
    if (!this.#enter("handshake")) return false;
    this.#watch = watch;
    return true;
  }

  /** Stops `watch`, and forgets it if it is the record's (its attempt failed or asks again). */
  unwatch(watch: ConnectionWatch | undefined): void {
    watch?.stop();
    if (watch !== undefined && this.#watch === watch) this.#watch = undefined;
  }

  /** Starts the watch of the committed connection: re-lists from now on. */
  activateWatch(): void {
    this.#watch?.activate();
  }

  /** The startup gate did not wait for the current attempt, which has no cached tools: why. */
  notWaited(why: MCPNotWaitedFor): void {
    this.#set({ notWaitedFor: why });
  }

  /** Cached definitions stand in while the server connects, less those `judged` holds; returns whether any are exposed. */
  defer(cached: readonly MCPToolDefinition[], judged: Judgement = NOTHING_HELD): boolean {
    this.#set({ deferred: true, notWaitedFor: undefined });
    this.#expose(cached, judged);
    return this.definitions.length > 0;
  }

  /** Cached resources, prompts and instructions stand in too; returns the lists that changed. */
  deferContent(
    cached: GivenContent & { instructions?: string | undefined },
    judged: Judgement,
  ): ContentList[] {
    this.#set({
      instructions: judged.withholdInstructions ? undefined : capInstructions(cached.instructions),
    });
    return this.setContent(cached);
  }

  /** The tools of `offered` the config lets through, less those `judged` holds, are exposed. */
  #expose(offered: readonly MCPToolDefinition[], judged: Judgement): void {
    const held = new Set(judged.held.map((tool) => tool.name));
    this.#set({
      offered,
      definitions: filterServerTools(offered, this.config).filter((tool) => !held.has(tool.name)),
      appOnlyTools: appOnlyToolNames(offered, this.config),
      held: judged.held,
      findings: judged.findings,
      serverChange: judged.serverChange,
    });
  }

  /** The tools it offers were judged again (the user approved some): returns whether the exposed ones changed. */
  rejudged(judged: Judgement): boolean {
    const before = this.definitions;
    this.#expose(this.offered, judged);
    if (judged.withholdInstructions) this.#set({ instructions: undefined });
    return (
      before.length !== this.definitions.length ||
      before.some((tool, index) => tool !== this.definitions[index])
    );
  }

  /**
   * Connected and listed: the live definitions replace whatever stood in
   * (the live list wins). `connectedMs` is the whole start, `queuedMs` of it
   * the wait for a start slot.
   */
  connect(committed: {
    connection: MCPServerConnection;
    tools: readonly MCPToolDefinition[];
    /** What the approvals decided of `tools`. @default nothing held */
    judged?: Judgement;
    connectedMs: number;
    queuedMs: number;
  }): boolean {
    if (!this.#enter("listed")) return false;
    const { connection, tools: serverTools, judged = NOTHING_HELD, connectedMs, queuedMs } = committed;
    const verdict = connection.eraVerdict;
    this.#set({
      connection,
      connectedMs,
      queuedMs,
      lastEra: { config: connection.config, verdict },
      protocol: {
        era: verdict.era,
        protocolVersion: verdict.protocolVersion,
        decision: connection.eraDecision,
      },
      instructions: judged.withholdInstructions ? undefined : capInstructions(connection.instructions),
      disconnectReason: undefined,
      notWaitedFor: undefined,
    });
    this.relisted(serverTools, judged);
    return true;
  }

  /**
   * New resources (and templates) or prompts replace the ones it has, list
   * by list (a list not given stays); returns the lists that changed.
   */
  setContent(next: GivenContent): ContentList[] {
    const { content, changed } = mergeContent(this.content, next);
    this.#set({ content });
    return changed;
  }

  /** The server's tools were listed again: they replace the exposed ones, less those `judged` holds. */
  relisted(serverTools: readonly MCPToolDefinition[], judged: Judgement = NOTHING_HELD): void {
    this.#set({ listedTools: serverTools, deferred: false });
    this.#expose(serverTools, judged);
  }

  /** Remembers a resource subscription (made again after a reconnect). */
  subscribe(uri: string): void {
    this.#set({ subscriptions: new Set(this.subscriptions).add(uri) });
  }

  /** Forgets a resource subscription. */
  unsubscribe(uri: string): void {
    const subscriptions = new Set(this.subscriptions);
    subscriptions.delete(uri);
    this.#set({ subscriptions });
  }

  /**
   * The config or the attempt failed, reconnecting gave up (`failed`), or the
   * server needs a sign-in (`needs-auth`): no tools. Returns whether it had tools.
   */
  fail(error: McpRtError, as: "failed" | "needs-auth" = "failed"): boolean {
    if (!this.#enter(as === "failed" ? "fail" : "sign-in-needed")) return false;
    const hadTools = this.definitions.length > 0;
    this.#set({
      lastError: error,
      definitions: [],
      offered: [],
      held: [],
      findings: [],
      serverChange: undefined,
      appOnlyTools: [],
      deferred: false,
      instructions: undefined,
      notWaitedFor: undefined,
    });
    return hadTools;
  }

  /** An automatic attempt failed: its error is the last one; the tools stay while reconnecting goes on. */
  retrying(error: McpRtError): boolean {
    if (!this.#enter("retry")) return false;
    this.#set({ lastError: error });
    return true;
  }

  /**
   * The live connection went away: it is no longer `connected` (`backing-off`
   * when an automatic attempt follows, else `idle`). Its tools stay, so that a
   * reconnect brings them back; calls fail fast meanwhile.
   */
  drop(reason: string, error: McpRtError, reconnect: boolean): boolean {
    if (!this.#enter(reconnect ? "drop" : "close")) return false;
    this.#watch?.stop();
    this.#watch = undefined;
    this.#set({ connection: undefined, disconnectReason: reason, lastError: error });
    return true;
  }

  /** Its reconnect bookkeeping since it dropped, made with `policy` at the first drop. */
  outageOf(policy: () => ReconnectPolicy): Outage {
    this.#outage ??= new Outage(policy());
    return this.#outage;
  }

  /** Reconnecting is over (gave up, or connected on purpose): the next drop starts afresh. */
  endOutage(): void {
    this.#outage?.cancel();
    this.#outage = undefined;
  }

  /**
   * Stops following the connection, forgets the reconnect timer and lets go
   * of the connection (the record is being removed, restarted or signed in
   * again); returns the connection, for the caller to close.
   */
  release(): MCPServerConnection | undefined {
    const { connection } = this;
    this.#watch?.stop();
    this.#watch = undefined;
    this.endOutage();
    this.#set({ connection: undefined });
    return connection;
  }
}
