/** Who is measured: this project, the floor it is compared with, and the library a developer would pick instead. */
export type ContenderId =
  | "mcp-rt"
  | "mcp-rt-cache-first"
  | "mcp-rt-approvals"
  | "raw-sdk"
  | "raw-sdk-v2"
  | "raw-sdk-v2-auto"
  | "langchain";

/** How each contender is named in the report. */
export const CONTENDER_LABELS: Record<ContenderId, string> = {
  "mcp-rt": "mcp-rt",
  "mcp-rt-cache-first": 'mcp-rt, `startupMode: "cache-first"`',
  "mcp-rt-approvals": 'mcp-rt, `"cache-first"` with approved tool definitions checked',
  "raw-sdk": "raw SDK",
  "raw-sdk-v2": "raw SDK v2",
  "raw-sdk-v2-auto": 'raw SDK v2, `versionNegotiation: { mode: "auto" }`',
  langchain: "LangChain MultiServerMCPClient",
};

/** A stdio server as every contender can start it (the shape `@mcp-rt/testing` helpers return). */
export interface StdioServer {
  command: string;
  args: string[];
  /** Variables added to the SDK's default environment of a stdio server (a real server's settings). */
  env?: Record<string, string>;
  /** mcp-rt's per-server `timeout` (connect + first list), in ms; the raw SDK has its own 60 s request timeout. */
  timeout?: number;
  /** mcp-rt's per-server `protocol` (which MCP era, or `auto` to ask); the raw SDK's is its `versionNegotiation`. */
  protocol?: "auto" | "legacy" | "2026-07-28";
}

/**
 * Connect to every server, list their tools and have them in hand. Used by
 * the warm start, cold start, scale and big-list scenarios.
 */
export interface StartupTask {
  kind: "startup";
  contender: ContenderId;
  servers: Record<string, StdioServer>;
  /** The project folder: where servers run and what mcp-rt's cache keys include. */
  cwd: string;
  /** mcp-rt: the folder of its file-store tool cache (empty = cold, primed = warm). */
  cacheDir: string;
  /** Tools every server together must give; fewer fails the run. */
  expectTools: number;
  /** Raw SDK only: start every server through `setsid`, as in {@link CallsTask} (diagnostic). */
  serverInOwnSession?: boolean;
  /**
   * Raw SDK only: give every server the host's whole environment, as mcp-rt
   * does (less what looks secret), instead of the SDK's default six variables (diagnostic).
   */
  serverWithHostEnv?: boolean;
  /** mcp-rt only: bounds the hard wait for servers without a cache entry, as the example agent does (5000). */
  maxStartupWaitMs?: number;
  /** mcp-rt only: record every cache read's time and what the cache says of reads it gave up on. */
  logCacheReads?: boolean;
  /**
   * How many servers start at once. mcp-rt: its `maxConcurrentStarts` option,
   * passed through `MCPManager`'s options. Raw SDK: at most this many servers
   * in connect + list at once, the others waiting in config order (a simple
   * limit, to show what spreading the spawns does). `"Infinity"`: no limit
   * (the task reaches the worker as JSON, which has no Infinity).
   * @default mcp-rt: its own default; raw SDK: every server at once (`Promise.all`)
   */
  maxConcurrentStarts?: number | "Infinity";
}

/** mcp-rt's tool cache reads during one start (diagnostic of a read timing out on a busy machine). */
export interface CacheReadLog {
  /** Each store read (the file store's `get`), from call to answer, in ms. */
  readMs: number[];
  /** Reads the cache stopped waiting for: how long it waited, how late its timers fired, how much it stretched the limit. */
  timeouts: Array<{ server: string; elapsedMs: number; lateMs: number; stretchMs: number }>;
  /** Those reads' answers, when they came: how long after the cache stopped waiting, and whether they held an entry. */
  late: Array<{ server: string; afterMs: number; found: boolean }>;
}

/** The host's V8 heap at the end of a run, in MB (diagnostic: what its peak RSS is made of). */
export interface HeapMB {
  /** What the young generation (new space) has grown to: V8 grows it while a busy start allocates. */
  youngMB: number;
  /** The rest of the heap in use: what the host holds, and garbage not yet collected there. */
  restUsedMB: number;
}

/** What a startup run measured. */
export interface StartupResult {
  kind: "startup";
  /** From the call that begins connecting until every tool is in hand (mcp-rt: in the session's registry). */
  ms: number;
  tools: number;
  /** The longest event-loop stall while starting, in ms. */
  loopStallMs: number;
  /** CPU time (user + system) of the host process until every tool was in hand, in ms. */
  cpuMs: number;
  /** mcp-rt: tools that came from the cache (their server was still starting). */
  deferred: number;
  /** Peak resident set size of the worker process (the host), in MB. */
  peakRssMB: number;
  /** The host's V8 heap when it read its peak RSS. */
  heap: HeapMB;
  /** `disconnectAll()` / closing every client, in ms. */
  closeMs: number;
  /** Descendant processes of the worker still running right after closing. */
  processesLeft: number;
  /**
   * Raw SDK, and mcp-rt when every server was waited for: per server, from the
   * start until its tools were listed, in ms (which server holds the start up).
   */
  perServerMs?: Record<string, number>;
  /** With `logCacheReads`: the tool cache's reads. */
  cacheReads?: CacheReadLog;
}

/** mcp-rt only: connect every server until its tools are cached, so a later start finds the cache warm. */
export interface PrimeCacheTask {
  kind: "prime-cache";
  servers: Record<string, StdioServer>;
  cwd: string;
  cacheDir: string;
}

/** How many servers have an entry in the cache after priming. */
export interface PrimeCacheResult {
  kind: "prime-cache";
  cached: number;
}

/** Sequential `echo` calls through one connected server. */
export interface CallsTask {
  kind: "calls";
  contender: ContenderId;
  server: StdioServer;
  cwd: string;
  /**
   * Raw SDK only: start the server through `setsid`, in a session of its own
   * as mcp-rt does, to tell that cost apart from mcp-rt's code (diagnostic).
   */
  serverInOwnSession?: boolean;
  /**
   * Raw SDK only: ask for progress on every call through the SDK's
   * `onprogress` (the limit reset by each notification), as mcp-rt did before
   * it asked with tokens of its own, to show what that costs (diagnostic).
   */
  askForProgress?: boolean;
  /**
   * Raw SDK only: every call carries a `progressToken` in `_meta`, as
   * mcp-rt's `callTool` sends one (so a server may report progress), without
   * `onprogress`: the request mcp-rt makes, from the raw client (diagnostic).
   */
  sendProgressToken?: boolean;
  /** Untimed calls first, so both contenders run warm code. */
  warmupCalls: number;
  calls: number;
}

/** What a calls run measured. */
export interface CallsResult {
  kind: "calls";
  /** All timed calls together. */
  ms: number;
  /** CPU time (user + system) the host process spent on them, in ms: the client's own cost. */
  cpuMs: number;
  calls: number;
}

/** Start from a project's config, wait until all servers are live and cached, then reload. */
export interface ReloadTask {
  kind: "reload";
  contender: ContenderId;
  /** Project folder holding `.mcp-rt/mcp.json`. */
  cwd: string;
  /** An empty home folder, so that no user-level config of this machine is read. */
  homeDir: string;
  cacheDir: string;
  expectTools: number;
  /**
   * mcp-rt only: time `/mcp reload` (`session.reload()`) instead of the
   * design document's full restart: with nothing changed (`none`), with the
   * first server's args edited (`one`, put back after), or `/mcp reload --all`
   * (`all`: every server restarted, old ones closing while new ones start).
   */
  change?: "none" | "one" | "all";
}

/** What a reload measured. */
export interface ReloadResult {
  kind: "reload";
  /** disconnect + discover + connect until the tools are back in hand. */
  ms: number;
  disconnectMs: number;
  /** Discovery and connection until the call returned. */
  connectMs: number;
  /** Putting the tools back into the session's registry. */
  registerMs: number;
  tools: number;
  deferred: number;
  /** With `change`: how many servers the reload restarted or started. */
  restarted?: number;
  /** With `change: "one"`: the edited server started alone on a fresh manager, no cache (the cost of one start). */
  oneStartMs?: number;
}

/** The store names of the cache scenario. */
export type CacheStoreId = "memory" | "file" | "redis";

/** `MCPToolCache` get/set of one big entry on each store, alternating stores. */
export interface CacheStoresTask {
  kind: "cache-stores";
  tools: number;
  warmup: number;
  runs: number;
  fileDir: string;
  /** Absent when no Redis could be started. */
  redisUrl?: string;
}

/** Get and set times per store, in ms, one per run. */
export interface CacheStoresResult {
  kind: "cache-stores";
  entryBytes: number;
  stores: Partial<Record<CacheStoreId, { get: number[]; set: number[] }>>;
}

/** One tool call with a known answer, on a server that answers it offline. */
export interface ToolCallSpec {
  server: string;
  /** The tool's name on its server. */
  tool: string;
  arguments: Record<string, unknown>;
  /** The answer's text (its text blocks, joined by newlines) must contain this. */
  expect: string;
}

/** Sequential calls of several tools on several servers, every answer checked. */
export interface ToolCallsTask {
  kind: "tool-calls";
  contender: ContenderId;
  servers: Record<string, StdioServer>;
  cwd: string;
  /** Done in this order, one after another; a round is every call once. */
  calls: ToolCallSpec[];
  /** Raw SDK only: start every server through `setsid`, as in {@link CallsTask} (diagnostic). */
  serverInOwnSession?: boolean;
  /** Untimed rounds first, so every contender runs warm code. */
  warmupRounds: number;
  rounds: number;
}

/** What a tool-calls run measured. */
export interface ToolCallsResult {
  kind: "tool-calls";
  /** All timed calls together. */
  ms: number;
  /** CPU time (user + system) of the host process during the timed calls, in ms. */
  cpuMs: number;
  calls: number;
  /** Per server: the time of its timed calls together, and how many there were. */
  perServer: Record<string, { ms: number; calls: number }>;
}

/** Everything a worker can be asked to do. */
export type Task = StartupTask | PrimeCacheTask | CallsTask | ReloadTask | CacheStoresTask | ToolCallsTask;

/** What a worker answers, by task kind. */
export interface TaskResults {
  startup: StartupResult;
  "prime-cache": PrimeCacheResult;
  calls: CallsResult;
  reload: ReloadResult;
  "cache-stores": CacheStoresResult;
  "tool-calls": ToolCallsResult;
}

/** The message a worker sends back over IPC. */
export type WorkerMessage = { ok: true; result: TaskResults[Task["kind"]] } | { ok: false; error: string };
