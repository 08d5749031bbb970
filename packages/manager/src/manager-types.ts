import type { MCPToolApprovals, MCPToolCache } from "@mcp-rt/cache";
import type { ElicitationHandler, MCPEra, MCPEraDecision, ToolLimits } from "@mcp-rt/client";
import type {
  AuthStorage,
  LoadConfigsOptions,
  LoadConfigsResult,
  Logger,
  MCPPoisoningPolicy,
  MCPServerConfig,
  MCPToolChangesPolicy,
  McpRtError,
  SourceMeta,
} from "@mcp-rt/config";
import type { MCPToolsHeld } from "./approvals/tool-review.js";

/** The design document's three statuses of a server, derived from its phase. */
export type MCPConnectionStatus = "connected" | "connecting" | "disconnected";

/**
 * Why `connectServers` returned without waiting for a server that had no
 * cached tools (its tools arrive live, with `tools:changed`).
 */
export type MCPNotWaitedFor =
  | {
      /**
       * `"ran-out"`: it was still starting when `maxStartupWaitMs` ran out at
       * this start. `"missed-before"`: it was still starting when the wait ran
       * out at its last start (a note the tool cache keeps), so this start did
       * not wait for it.
       */
      reason: "ran-out" | "missed-before";
      /** The wait it did not come up within, in ms. */
      waitMs: number;
    }
  | {
      /**
       * `"failed-before"`: its last start failed by itself (an exit, a
       * refusal, a timeout: a note the tool cache keeps for an hour), so this
       * start did not wait for it; it is started behind the others, and its
       * result replaces the note.
       */
      reason: "failed-before";
      /** What that start failed with: the code and the first line of the message. */
      failure: { code: string; message: string };
    };

/** The MCP era a server speaks, the revision agreed, and how that was decided. */
export interface MCPServerProtocol {
  /** `modern` (2026-07-28: `server/discover`, `_meta` on every request) or `legacy` (`initialize`). */
  era: MCPEra;
  /** The revision agreed, e.g. `2026-07-28` or `2025-11-25` (`describeEra` shows both fields). */
  protocolVersion: string;
  /** How it was decided: the config's `protocol`, the server's answer to the probe, a stored verdict, or a fallback. */
  decision: MCPEraDecision;
}

/** A server as a UI shows it. */
export interface MCPServerState {
  /** The config name. */
  name: string;
  /** Where the config came from, when known. */
  source?: SourceMeta;
  /**
   * `failed`: the last attempt failed, or reconnecting gave up (see
   * `lastError`); `reconnecting`: it dropped and the manager is bringing it
   * back (waiting for an attempt, or in one); `needs-auth`: a remote server
   * that needs the user to sign in (`login`); `disconnected`: it was connected
   * and its transport closed (with `reconnect: false`), or it was never started.
   */
  status: MCPConnectionStatus | "reconnecting" | "failed" | "needs-auth";
  /** While `reconnecting`: the number of the attempt running or scheduled (1, 2, …). */
  reconnectAttempt?: number;
  /** Tools exposed for it now (live or from cache). */
  toolCount: number;
  /** True while its tools come from the cache and the server is not up yet. */
  deferred: boolean;
  /**
   * Tools it offers only to an app's UI (MCP Apps: `_meta.ui.visibility`
   * without `"model"`), by their original names: never exposed, never given
   * to the model; named here so a UI can list them. Absent when none.
   */
  appOnlyTools?: string[];
  /** Resources and resource templates it offers (live or cached), when it has any. */
  resourceCount?: number;
  /** Prompts it offers (live or cached), when it has any. */
  promptCount?: number;
  /**
   * The server's `instructions` from `initialize`: its own words on how to
   * use it, for the agent's system prompt (see `session.instructions()`).
   * Cut at 2048 characters with a note. Live, or from the cache.
   */
  instructions?: string;
  /**
   * True when its config says `alwaysLoad` (or the native file's
   * `alwaysLoadServers` names it): a session's tool search always gives the
   * model its tools.
   */
  alwaysLoad?: boolean;
  /** How long connect + `tools/list` took, once connected (the time it queued for its start included). */
  connectedMs?: number;
  /**
   * How long its last start queued before it was launched, in ms, when it
   * queued (`maxConcurrentStarts` stdio servers start at once); its `timeout`
   * counts from the launch.
   */
  queuedMs?: number;
  /** The era and revision it speaks, once it has connected (its last connection's, while it is down). */
  protocol?: MCPServerProtocol;
  /** While it is still starting: why startup did not wait for it (see {@link MCPNotWaitedFor}). */
  notWaitedFor?: MCPNotWaitedFor;
  /**
   * Tools it offers that are held until the user approves them (changed or
   * new since approved, or poisoned), by their original names; absent when
   * none. `reviewTools(name)` shows why, with each diff.
   */
  heldTools?: string[];
  /** How many signs of poisoning the offline check found in what it offers now (held or not); absent when none. */
  findingCount?: number;
  /** The last failure: connect, list, or a dropped transport. */
  lastError?: { code: string; message: string; stderrTail?: string };
}

/** Events of an `MCPManager`, by name, with their payloads. */
export interface MCPManagerEvents {
  /** An attempt to connect started (not emitted for automatic reconnects, which emit `server:reconnecting`). */
  "server:connecting": { name: string };
  /** Connected and its tools listed; `ms` is connect + list time, `queuedMs` of it the wait for a start slot. */
  "server:connected": {
    name: string;
    ms: number;
    queuedMs: number;
    toolCount: number;
    protocol: MCPServerProtocol;
  };
  /** An attempt failed (invalid config, connect, list, auth), or reconnecting gave up (circuit breaker). */
  "server:failed": { name: string; error: McpRtError };
  /** A connected server went away: its transport closed, or it was disconnected on purpose. */
  "server:disconnected": { name: string; reason: string };
  /** A dropped server's next reconnect attempt starts in `delayMs`; `attempt` counts from 1 since it dropped. */
  "server:reconnecting": { name: string; attempt: number; delayMs: number };
  /**
   * A remote server needs the user to sign in (again): at connect, or when its
   * tokens could not be refreshed later. It waits for `login(name)`; its tools
   * are gone until then. `error.details.reason` says why.
   */
  "server:needs-auth": { name: string; error: McpRtError };
  /** The tools of `name` changed: call `getTools()` again. */
  "tools:changed": { name: string };
  /**
   * Tools of `name` are held until the user approves them, told once per
   * definition (not those the user chose to keep holding): each with why
   * (`reasons`), what the poisoning check found, and its diff against the
   * definition approved before, so that a host can ask its own way. Its
   * policy says whether to ask (`"ask"`) or only to note it (`"hold"`).
   * Approve with `approveTools`, keep holding with `holdTools`.
   */
  "tools:held": MCPToolsHeld;
  /** The resources or resource templates of `name` changed (listed, relisted after `list_changed`, cached, or gone): call `getResources()` again. */
  "resources:changed": { name: string };
  /** The prompts of `name` changed: call `getPrompts()` again. */
  "prompts:changed": { name: string };
  /** Server `name` says the resource `uri` changed (`notifications/resources/updated`, after `subscribeResource`). */
  "resource:updated": { name: string; uri: string };
  /** A reload (`reload`, `discoverAndReload`) started, stopped or restarted servers: which ones. */
  "config:changed": MCPConfigChange;
}

/** What a reload did to each server, by name (each name in one list, in config order). */
export interface MCPConfigChange {
  /** New servers: started. */
  added: string[];
  /** Servers no longer configured (or turned off): stopped. */
  removed: string[];
  /**
   * Servers started again: their config or the values resolved from it
   * (`!cmd` outputs, API keys) changed, or `all` / `retryFailed` asked for it.
   */
  restarted: string[];
  /** The rest: not touched (same process; calls in flight finish). */
  unchanged: string[];
}

/** What `reload` takes: the configs to run, where they came from, and what to restart besides the changed. */
export interface MCPReloadOptions {
  /** Every server that should run, by name; one not in it is stopped. */
  configs: Record<string, MCPServerConfig>;
  /** Where each config came from, by name (shown in states and errors). @default {} */
  sources?: Record<string, SourceMeta>;
  /** Restart every configured server, changed or not (the design document's reload). @default false */
  all?: boolean;
  /**
   * Also start again the unchanged servers that are not running: failed,
   * given up by the circuit breaker, or dropped (a cause outside the config
   * may be fixed). Not those waiting for a sign-in. @default false
   */
  retryFailed?: boolean;
}

/** Options of `discoverAndReload`: discovery's own and the reload's. */
export interface DiscoverAndReloadOptions
  extends DiscoverAndConnectOptions,
    Pick<MCPReloadOptions, "all" | "retryFailed"> {}

/** Options of a request to one server: `signal` aborts it, and the wait for a server still connecting. */
export interface MCPRequestOptions {
  signal?: AbortSignal | undefined;
}

/** What `readResource` and `readResourceResult` take. */
export interface MCPReadResourceOptions extends MCPRequestOptions {
  /** The server's config name. */
  server: string;
  /** The resource's URI: listed, or made from a template. */
  uri: string;
}

/** What `getPrompt` takes. */
export interface MCPGetPromptOptions extends MCPRequestOptions {
  /** The server's config name. */
  server: string;
  /** The prompt's name, as `getPrompts` lists it. */
  name: string;
  /** The prompt's arguments by name. @default {} */
  arguments?: Record<string, string>;
}

/** What `testServer` takes. */
export interface MCPTestServerOptions extends MCPRequestOptions {
  /** The server's name, in errors and in what it reports. */
  name: string;
  /** The config to test, unresolved (`!cmd` values and API keys are resolved as for a start). */
  config: MCPServerConfig;
  /** The limit of the connect and of the list, each. @default the config's `timeout`, else 30000 */
  timeoutMs?: number;
  /** The config file, named in errors. */
  sourcePath?: string;
}

/** When `connectServers` returns: see `MCPManagerOptions.startupMode`. */
export type MCPStartupMode = "gate" | "cache-first";

/**
 * How the manager reconnects a server whose connection dropped.
 * Attempts come in bursts; within a burst, attempt k waits a random time
 * between 0 and `min(maxDelayMs, initialDelayMs × 2^(k-1))` ("full jitter").
 * When a whole burst fails, the next one starts after a pause of
 * `maxDelayMs / 2` to `maxDelayMs`. When `maxFailedBursts` bursts in a row
 * have failed within `failedBurstWindowMs`, the circuit breaker opens: the
 * server is marked `failed` and left alone until it is connected again on
 * purpose (`connectServers`, `/mcp reload`). A reconnected server counts as
 * recovered (the counts start over) once it stayed up for `maxDelayMs`, so a
 * server that keeps dying right after it starts also ends up `failed`.
 */
export interface ReconnectOptions {
  /** The cap of the first attempt's random delay, in ms; it doubles with each attempt of a burst. @default 500 */
  initialDelayMs?: number;
  /**
   * The largest delay before an attempt, in ms; also the longest pause between
   * bursts, and how long a reconnected server must stay up to count as recovered.
   * @default 30000
   */
  maxDelayMs?: number;
  /** Attempts per burst. @default 5 */
  maxAttempts?: number;
  /** Failed bursts in a row after which the server is marked `failed` (the circuit breaker). @default 3 */
  maxFailedBursts?: number;
  /** Failed bursts older than this, in ms, do not count towards `maxFailedBursts`. @default 600000 */
  failedBurstWindowMs?: number;
  /** The source of the jitter: returns a number in [0, 1). Tests pass their own. @default Math.random */
  random?: () => number;
}

/** Options of `MCPManager`. */
export interface MCPManagerOptions {
  /**
   * Where tool definitions are cached between runs: an `MCPToolCache` (the
   * caller's; it stays open), a store URL (`memory:`, `file:/path`,
   * `redis://host:port`; opened and closed by the manager; one that cannot be
   * opened is reported once in `problems` and startup goes on without it),
   * or `null` for no cache.
   * @default an `MCPToolCache` on the default file store (`$XDG_CACHE_HOME/mcp-rt` or `~/.cache/mcp-rt`)
   */
  cache?: MCPToolCache | string | null;
  /**
   * Where the tool definitions the user approved are kept
   * (`createToolApprovals()`: `~/.mcp-rt/tool-approvals/`). With a store, the
   * first list of a server is recorded, and every later list (live or
   * cached) is compared with it: a new or changed tool, or a server that
   * now runs another command or calls itself by another name, is drift
   * (see `toolChanges`). The caller's: the manager never closes it. `null`
   * or unset: no store; tool changes are not checked, the poisoning check
   * still runs, and approvals given with `approveTools` last as long as the
   * manager. @default null
   */
  approvals?: MCPToolApprovals | null;
  /**
   * What drift does: `"ask"` and `"hold"` keep the drifted tools from the
   * model (the rest of the server stays) and emit `tools:held`, whose
   * listener asks the user (`"ask"`) or only notes it (`"hold"`);
   * `"allow"` exposes and records them. A server's own `toolChanges`
   * overrides it (a project-level entry only to make it stricter).
   * @default "hold": a library has nobody to ask, and a tool held can still be approved, a tool exposed has been read
   */
  toolChanges?: MCPToolChangesPolicy;
  /**
   * What a strong sign of a poisoned definition does (tag characters, bidi
   * controls, tags or orders aimed at the model): `"hold"` keeps the tool
   * (and instructions) from the model until approved, `"warn"` only logs
   * it. Weak signs are always only logged. A server's own `poisoning`
   * overrides it (a project-level entry only to make it stricter).
   * @default "hold"
   */
  poisoning?: MCPPoisoningPolicy;
  /** The startup gate: how long `connectServers` waits before it uses the cache. @default 250 */
  startupTimeoutMs?: number;
  /**
   * How many stdio servers are launched and in their start (until they
   * answer the handshake, exit, or 2 s pass) at once; the others queue,
   * servers the start waits for first, then those that came up fast last
   * time. Spread over the cores, the first servers are up in one server's
   * time and the last no later than all at once. Remote servers never queue.
   * `Infinity`: all at once. A server's `timeout` counts from its launch.
   * @default os.availableParallelism()
   */
  maxConcurrentStarts?: number;
  /**
   * When `connectServers` returns. `"gate"` (the design document): once every
   * server settled, or after `startupTimeoutMs`, with deferred tools from the
   * cache for those still pending. `"cache-first"`: as soon as every server
   * has settled or has a valid cache entry, and never later than the gate; a
   * fully warm start waits for no timer, and live tools replace the deferred
   * ones (`tools:changed`) as servers come up. Servers without a cache entry
   * are waited for in both modes.
   * @default "gate"
   */
  startupMode?: MCPStartupMode;
  /**
   * How long `connectServers` waits for pending servers without a cache entry.
   * After it, such a server stays `connecting` and its tools arrive through
   * `tools:changed`. A server still starting when the wait ran out is noted in
   * the tool cache (keyed like its entry), and later starts do not wait for it
   * (`MCPServerState.notWaitedFor`) until its tools are cached, the note
   * expires (the cache's `missedStartupTtlMs`), or the bound is raised above
   * the one it missed. @default unbounded (each server's own `timeout` still applies)
   */
  maxStartupWaitMs?: number;
  /** Where warnings (late failures, cache errors) go. @default silent */
  logger?: Logger;
  /**
   * Names no server's tool may be exposed under: the host's own tools (a
   * session passes `mcp_tool_search`, `mcp_read_result`, …). A server tool
   * whose name would be one gets a hash suffix instead, and a warning names
   * both, so a server can never answer a call meant for the host.
   * @default none
   */
  reservedToolNames?: readonly string[];
  /**
   * Where credentials live: API keys for `auth: { type: "apikey" }` and OAuth
   * sign-ins (client registrations, tokens) of remote servers. Without it,
   * a server that asks for a sign-in fails with `AUTH_REQUIRED`. At startup
   * no browser opens: a server without a usable sign-in becomes `needs-auth`
   * and waits for `login(name)`. A URL (`file:` / `file:/path`, `memory:`,
   * `redis://…`, `keychain:`) opens a store the manager closes on `close()`.
   */
  authStorage?: AuthStorage | string;
  /**
   * Who the agent acts for. It is part of every server's auth context (with
   * the values its config resolves to and its OAuth sign-in), under which
   * the lists a 2026-07-28 server marks `cacheScope: "private"` are cached:
   * a store shared by several users (a file on a shared disk, a Redis) never
   * hands one's private lists to another. A host that serves several users
   * from one process names each.
   * @default the OS user, host and home folder (`localUser()`)
   */
  user?: string;
  /**
   * Opens the authorization page during `login`.
   * @default the `open` package's browser launch; prints the URL when none can be opened (e.g. over SSH)
   */
  openUrl?: (url: string) => void | Promise<void>;
  /** How long the user has to finish a sign-in in the browser (ms). @default 300000 */
  signInTimeoutMs?: number;
  /** Text characters a tool result may hold before it is cut. @default 100000 */
  resultCharLimit?: number;
  /**
   * Bytes of image data (decoded) a tool result may hold; an image past them
   * becomes a note with its type and size. Audio, and resources with binary
   * content, are always notes. @default 5242880 (5 MiB)
   */
  resultMediaByteLimit?: number;
  /**
   * What one server's tool list may hold: `maxTools` (2000; the rest are
   * dropped), `maxToolNameLength` (128; longer-named tools are dropped),
   * `maxDescriptionLength` (4096; cut with a note), `maxSchemaDepth` (64) and
   * `maxSchemaSize` (100000 characters; a larger input schema is replaced
   * and the description says so). Each kind of breach is logged once per
   * server, as a warning naming the server and the limit.
   * @default DEFAULT_TOOL_LIMITS
   */
  toolLimits?: ToolLimits;
  /**
   * The largest message a server may send, in bytes (a stdio line, an HTTP
   * body, one event of a stream). A stdio server past it is disconnected and
   * reconnected; a remote request past it fails. Either way with
   * `LIMIT_EXCEEDED`, naming this option. @default 10485760 (10 MiB, the SDK's stdio limit)
   */
  maxMessageBytes?: number;
  /**
   * The shortest time between two re-lists of one server's tools after
   * `notifications/tools/list_changed`; changes announced meanwhile are
   * coalesced into one re-list when it has passed. A server that announces
   * faster (a server that announces after every list would re-list hundreds
   * of times a second, each writing the cache) is logged once. @default 1000
   */
  minRelistIntervalMs?: number;
  /**
   * Reconnects a server whose connection dropped, with backoff, jitter and a
   * circuit breaker (see {@link ReconnectOptions}); `false` restores the design
   * document's manual model (a dropped server stays `disconnected` until
   * `connectServers` or `/mcp reload`). @default true
   */
  reconnect?: boolean | ReconnectOptions;
  /**
   * Pings every connected server this often (ms); one that does not answer
   * within `healthCheckTimeoutMs` is treated as dropped: closed, then
   * reconnected. `0` or unset: no pings. @default off
   */
  healthCheckIntervalMs?: number;
  /** How long a server may take to answer a health-check ping (ms). @default the smaller of healthCheckIntervalMs and 10000 */
  healthCheckTimeoutMs?: number;
  /**
   * Answers servers that ask the user for input (`elicitation/create`): a
   * form (`requestedSchema`) or a URL to open. The request names the server
   * that asks; `signal` aborts when the server cancels it. Only with a
   * handler is the `elicitation` capability declared (servers then may
   * ask); defaults from the schema are applied to an accepted form, and
   * content that does not fit the schema is never sent.
   * @default none: servers cannot ask
   */
  onElicitation?: ElicitationHandler;
}

/** How servers are discovered: `loadAllMCPConfigs`, or a replacement (tests inject one that throws). */
export type DiscoverFunction = (cwd: string, options: LoadConfigsOptions) => Promise<LoadConfigsResult>;

/** Options of `discoverAndConnect`: discovery's own, and a replacement for it. */
export interface DiscoverAndConnectOptions extends LoadConfigsOptions {
  /** Replaces `loadAllMCPConfigs`. @default loadAllMCPConfigs */
  discover?: DiscoverFunction;
}
