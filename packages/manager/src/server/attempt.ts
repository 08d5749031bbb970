import type {
  MCPToolCache,
  MCPToolCacheEntry,
  MCPToolCacheEra,
  MCPToolCacheFacts,
  MCPToolCacheRead,
} from "@mcp-rt/cache";
import type { MCPEraVerdict, MCPServerConnection } from "@mcp-rt/client";
import { DEFAULT_CONNECT_TIMEOUT_MS } from "@mcp-rt/client/light";
import { type MCPServerConfig, type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import { abortError, monotonicMs } from "@mcp-rt/config/util";
import { abortable, delay } from "../abortable.js";
import type { AttemptIdentity } from "./attempt-identity.js";

/** Options of {@link Attempt}. */
export interface AttemptOptions {
  /** The server's config name. */
  name: string;
  /** The unresolved config to connect with. */
  config: MCPServerConfig;
  /** Where its tools may be cached (once the cache is open); `null` to read nothing. */
  cache: Promise<MCPToolCache | null> | null;
  /** The project folder, part of the cache key. */
  cwd: string;
  /**
   * What the server is started with and as (`resolveIdentity`), started
   * with the attempt: its private lists are read under its auth context.
   */
  identity: Promise<AttemptIdentity>;
  /**
   * The read of the server's approved tool definitions, started with the
   * attempt (it never rejects): its tools are judged once it is in.
   * @default nothing to read
   */
  approvals?: Promise<void>;
  /** True for an automatic reconnect: no `connectServers` call waits on it. @default false */
  reconnect?: boolean;
  /** True for `login`: a remote server that needs a sign-in runs the browser step. @default false */
  interactive?: boolean;
}

/**
 * How long an attempt whose cache read is still out once its identity is
 * known (it waited for a `!command`) waits for that read before it
 * connects: long enough for one store read, too short to be felt.
 */
export const LATE_READ_WAIT_MS = 100;

/** One connect + list of one server, and what the startup gate needs to know of it. */
export class Attempt {
  /** The server's config name. */
  readonly name: string;
  /** The unresolved config this attempt uses. */
  readonly config: MCPServerConfig;
  /** Calls the attempt off: whatever it started is closed. */
  readonly controller: AbortController = new AbortController();
  /** When it started (`monotonicMs()`). */
  readonly startedAt: number = monotonicMs();
  /**
   * The cached tool definitions, read while the connection is made; a miss
   * once the cache's read timeout passed (the startup gate never waits for
   * a slow store).
   */
  readonly cached: Promise<MCPToolDefinition[] | null>;
  /**
   * The tools of a cache read that answered only after its timeout; `null` at
   * once when the read was in time, or when the late answer holds none. They
   * stand in for the server if they land before it is up.
   */
  readonly late: Promise<MCPToolDefinition[] | null>;
  /** Resolves with the connection once connected and listed; rejects with an `McpRtError`. */
  readonly done: Promise<MCPServerConnection>;
  /** What the server is started with and as; rejects as resolving its config does (`SHELL_FAILED`, `AUTH_REQUIRED`). */
  readonly identity: Promise<AttemptIdentity>;
  /** Resolves once the server's approved tool definitions are known (never rejects). */
  readonly approvals: Promise<void>;
  #cachedEntry: MCPToolCacheEntry | null = null;
  #facts: MCPToolCacheFacts | undefined;
  #missedStartup: { waitMs: number; at: number } | undefined;
  #failedStartup: { code: string; message: string; at: number } | undefined;
  #readAnswered = false;
  #outcome: { ok: true } | { ok: false; error: McpRtError } | undefined;
  #returned: boolean;
  #settle!: { resolve(connection: MCPServerConnection): void; reject(error: unknown): void };
  /** When it got its start slot (`monotonicMs()`); until then, resolved by {@link Attempt.began}. */
  #beganAt: number | undefined;
  #queuedMs = 0;
  #markBegan!: () => void;
  readonly #began: Promise<void> = new Promise((resolve) => {
    this.#markBegan = resolve;
  });
  /** True for an automatic reconnect. */
  readonly reconnect: boolean;
  /** True for `login`: a sign-in may run. */
  readonly interactive: boolean;

  constructor(options: AttemptOptions) {
    this.name = options.name;
    this.config = options.config;
    this.reconnect = options.reconnect ?? false;
    this.interactive = options.interactive ?? false;
    // Nobody's `errors` will report a reconnect's failure.
    this.#returned = this.reconnect;
    const { cache, name, config, cwd } = options;
    this.identity = options.identity;
    this.approvals = options.approvals ?? Promise.resolve();
    // Its failure is the attempt's, reported when it connects; a read without it finds only public lists.
    this.identity.catch(() => {});
    const authContext = this.identity.then((identity) => identity.authContext);
    authContext.catch(() => {});
    // The cache never throws by contract; a miss is the only safe reading of anything else.
    const found: Promise<MCPToolCacheRead | null> = cache
      ? cache
          .then((open) => open?.read({ serverName: name, config, cwd }, { authContext }) ?? null)
          .catch(() => null)
          .then((read) => this.#found(read))
      : Promise.resolve(null);
    this.cached = found.then((read) => read?.entry?.tools ?? null);
    this.late = found.then((read) =>
      read?.late ? read.late.then((late) => this.#found(late)?.entry?.tools ?? null) : null,
    );
    this.done = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.done.then(
      () => {
        this.#outcome = { ok: true };
      },
      (error: McpRtError) => {
        this.#outcome = { ok: false, error };
      },
    );
  }

  /**
   * The attempt's identity, once its cache read answered too (in time, or
   * late: a read that waited for the identity is one store read away from
   * it then), or {@link LATE_READ_WAIT_MS} after the identity, whichever is
   * first: the read holds the server's stored era, which spares a probe.
   * Rejects as `identity` does.
   */
  async identityAndRead(): Promise<AttemptIdentity> {
    const identity = await this.identity;
    if (!this.#readAnswered) {
      const stop = new AbortController();
      await Promise.race([this.late, delay(LATE_READ_WAIT_MS, stop.signal)]);
      stop.abort();
    }
    return identity;
  }

  /** `done` settles as `run` does: the work the attempt stands for, started by its owner. */
  follow(run: Promise<MCPServerConnection>): void {
    run.then(this.#settle.resolve, this.#settle.reject);
  }

  /** The whole cache entry once `cached` (or `late`) found it (resources, prompts, instructions beside the tools); `null` on a miss. */
  get cachedEntry(): MCPToolCacheEntry | null {
    return this.#cachedEntry;
  }
  /** What the server's plain entry says of it for every caller (its era, its start time), read with `cached`. */
  get facts(): MCPToolCacheFacts | undefined {
    return this.#facts;
  }
  /** The era verdict the cache holds for the server: its entry's (with the discover result), else its facts'. */
  get storedEra(): MCPToolCacheEra | undefined {
    return this.#cachedEntry?.era ?? this.#facts?.era;
  }
  /** How long the server took to come up at the start that wrote its cache entry, in ms. */
  get storedStartMs(): number | undefined {
    return this.#cachedEntry?.startMs ?? this.#facts?.startMs;
  }
  /** The cache's note that the server did not come up within the startup wait at an earlier start, read with `cached`. */
  get missedStartup(): { waitMs: number; at: number } | undefined {
    return this.#missedStartup;
  }
  /** The cache's note that the server's last start failed by itself, read with `cached`. */
  get failedStartup(): { code: string; message: string; at: number } | undefined {
    return this.#failedStartup;
  }
  /** True once the store answered the read, in time or late: only then is a miss known to be one. */
  get readAnswered(): boolean {
    return this.#readAnswered;
  }
  /** Set once `done` settled. */
  get outcome(): { ok: true } | { ok: false; error: McpRtError } | undefined {
    return this.#outcome;
  }
  /** True once a `connectServers` call that waited on this attempt returned: a later failure or drop is logged, not reported. */
  get returned(): boolean {
    return this.#returned;
  }

  /**
   * When it got its start slot and began connecting (`monotonicMs()`); the
   * start before it, while it queued, is not its own time: its `timeout`
   * counts from here.
   */
  get beganAt(): number | undefined {
    return this.#beganAt;
  }

  /** How long it queued for its start slot, in ms (0 until it got it, and when it did not queue). */
  get queuedMs(): number {
    return this.#queuedMs;
  }

  /** It got its start slot after queuing `queuedMs` for it: it begins connecting now. */
  began(queuedMs: number): void {
    if (this.#beganAt !== undefined) return;
    this.#beganAt = monotonicMs();
    this.#queuedMs = Math.round(queuedMs);
    this.#markBegan();
  }

  /** The `connectServers` call that waited on it returned (its `errors` are out). */
  markReturned(): void {
    this.#returned = true;
  }

  /** Keeps what a read (in time or late) found. */
  #found(read: MCPToolCacheRead | null): MCPToolCacheRead | null {
    if (read?.entry) this.#cachedEntry = read.entry;
    if (read?.facts) this.#facts = read.facts;
    if (read?.missedStartup) this.#missedStartup = read.missedStartup;
    if (read?.failedStartup) this.#failedStartup = read.failedStartup;
    if (read && !read.late) this.#readAnswered = true;
    return read;
  }

  /**
   * Settles like `done`, but waits at most the config's `timeout` (then rejects
   * with `CONNECT_TIMEOUT`) and rejects with an `AbortError` when `signal`
   * aborts. The time counts from now, or, while the attempt still queues for
   * its start slot, from when it gets it.
   */
  async wait(signal?: AbortSignal): Promise<MCPServerConnection> {
    const timeoutMs = this.config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const timer = new AbortController();
    const stop = new AbortController();
    const timeout = timer.signal;
    void this.#began
      .then(() => delay(timeoutMs, stop.signal))
      .then(() => {
        if (!stop.signal.aborted) timer.abort();
      });
    try {
      return await abortable(this.done, signal ? AbortSignal.any([signal, timeout]) : timeout);
    } catch (error) {
      if (signal?.aborted)
        throw abortError(`Waiting for MCP server "${this.name}" to connect`, signal.reason);
      if (timeout.aborted && !this.outcome) {
        throw new McpRtError(
          "CONNECT_TIMEOUT",
          `MCP server "${this.name}" did not connect within ${timeoutMs} ms; raise \`timeout\` in its config`,
          { server: this.name },
        );
      }
      throw error;
    } finally {
      stop.abort();
    }
  }
}

/**
 * How long a stored era verdict is passed on: past a day the server is asked
 * again, on the process that serves it (no extra process). A legacy server
 * may have been upgraded to 2026-07-28, which it would never say while it
 * still answers `initialize`; a modern one may have gone back. A stale modern
 * verdict also fails its first request before that, and is replaced then.
 */
export const VERDICT_TTL_MS: number = 24 * 60 * 60 * 1000;

/** The stored verdict to connect with (no probe), or undefined to ask the server. */
export function verdictToPass(
  stored: MCPEraVerdict | MCPToolCacheEra | undefined,
  now: number = Date.now(),
): MCPEraVerdict | undefined {
  if (!stored) return undefined;
  if (now - stored.decidedAt > VERDICT_TTL_MS) return undefined;
  return stored;
}

/** What an attempt of a server that was stopped while it connected fails with. */
export function calledOffError(name: string): McpRtError {
  return new McpRtError("NOT_CONNECTED", `MCP server "${name}" was disconnected while it was connecting`, {
    server: name,
  });
}
