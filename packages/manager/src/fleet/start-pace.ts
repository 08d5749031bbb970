import { holdLaunches } from "@mcp-rt/client/light";
import { isStdioConfig, type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import { monotonicMs } from "@mcp-rt/config/util";
import { delay } from "../abortable.js";
import type { MCPNotWaitedFor, MCPStartupMode } from "../manager-types.js";
import type { Attempt } from "../server/attempt.js";
import type { StartPacing, StartSlot } from "../server/server-supervisor.js";
import { SpawnScheduler, type SpawnSchedulerOptions } from "./spawn-scheduler.js";

/**
 * How long a cache write waits at most for the other servers starting with
 * it to settle: on a cold start, twenty writes would otherwise take the CPU
 * the servers still starting need.
 */
export const CACHE_WRITE_WAIT_MS = 5000;

/**
 * How long before the startup gate no new stdio server is launched: a fork +
 * exec holds the event loop, and one started just before the gate would hold
 * the gate's timer until it ends.
 */
export const LAUNCH_HOLD_MS = 80;

/**
 * The start path's speed measures, in one place (docs/architecture.md, "The
 * startup gate"; what each saves is measured in `bench/`). None changes what
 * a start gives; each only orders work so that the caller gets its tools
 * first. The fleet owns one for all its servers, and passes the startup
 * gate itself ({@link passStartupGate}, below) for each `connectServers`.
 */
export class StartPace implements StartPacing {
  /**
   * How many stdio servers are in their CPU-heavy start at once: spawned all
   * together on a machine with few cores, they share the CPU for their whole
   * start, so none is ready early and every one is late.
   */
  readonly #spawns: SpawnScheduler;
  /** Servers a call waits for that had not queued yet (their cache reads were still out): they go first once they do. */
  readonly #hurried = new Set<string>();
  /** Cache reads of starting attempts: the client is loaded after them. */
  readonly #reads = new Set<Promise<unknown>>();
  /** Attempts started on purpose (not automatic reconnects) still connecting. */
  readonly #starting = new Set<Attempt>();
  /** Resolved when the last of {@link #starting} settles; made by the first to wait for that. */
  #noneStarting: { settled: Promise<void>; resolve: () => void } | undefined;

  /** @throws McpRtError `CONFIG_INVALID` naming the option, for a `maxConcurrentStarts` out of range. */
  constructor(options: SpawnSchedulerOptions = {}) {
    this.#spawns = new SpawnScheduler(options);
  }

  /** Follows a new attempt: its cache read, and (started on purpose) its settling. */
  track(attempt: Attempt): void {
    const read = attempt.cached;
    this.#reads.add(read);
    void read.then(() => this.#reads.delete(read));
    if (attempt.reconnect) return;
    this.#starting.add(attempt);
    const started = (): void => {
      this.#starting.delete(attempt);
      if (this.#starting.size > 0) return;
      this.#noneStarting?.resolve();
      this.#noneStarting = undefined;
    };
    attempt.done.then(started, started);
  }

  /**
   * Waits until `attempt` may load the client and connect, then hands it its
   * start slot (`attempt.began()` marks when its own time starts).
   *
   * First the cache reads of every attempt started so far: the SDK and the
   * transports are loaded only then, so on a warm start the cached tools are
   * handed over first and the module load overlaps with the servers
   * starting. An attempt whose own read found nothing goes on at once: its
   * server is waited for in any mode, so nothing is handed over before it
   * anyway.
   *
   * Then a slot, for a stdio server: at most `maxConcurrentStarts` of them
   * start at once. Servers the start waits for (no cache entry) go first,
   * then those that came up fast last time. A remote server's start costs
   * this machine nothing: it takes no slot.
   */
  async beforeConnect(attempt: Attempt): Promise<StartSlot> {
    await this.#afterCacheReads(attempt);
    if (!isStdioConfig(attempt.config)) {
      this.#hurried.delete(attempt.name);
      attempt.began(0);
      return NO_SLOT;
    }
    const { name, cachedEntry: entry, storedStartMs } = attempt;
    try {
      const slot = this.#spawns.acquire({
        name,
        urgent: !attempt.reconnect && entry === null,
        ...(storedStartMs === undefined ? {} : { expectedMs: storedStartMs }),
        signal: attempt.controller.signal,
      });
      // A call that waited for it before it queued moves it forward now.
      if (this.#hurried.delete(name)) this.#spawns.promote(name);
      const granted = await slot;
      attempt.began(granted.queuedMs);
      return granted;
    } catch {
      // Called off while it queued: the attempt sees its signal and ends with its reason.
      return NO_SLOT;
    }
  }

  /** A call waits for `name`, still queued for its start: it goes first. */
  hurry(name: string): void {
    if (!this.#spawns.promote(name)) this.#hurried.add(name);
  }

  async #afterCacheReads(attempt: Attempt): Promise<void> {
    // The attempts of one `connectServers` call are all started before this first await ends.
    // One the gate will not wait for (its note says it missed the wait before) launches after the handoff too.
    if ((await attempt.cached) === null && !attempt.missedStartup) return;
    while (this.#reads.size > 0) await Promise.all(this.#reads);
    // One more turn: a `connectServers` that passed on these reads returns, and its caller takes the tools, first.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * Resolves when a cache write may start: on the next event-loop turn (its
   * validation and serialisation are not in the way of a `connectServers`
   * about to return), once every attempt started on purpose has settled, or
   * after {@link CACHE_WRITE_WAIT_MS}.
   */
  async beforeCacheWrite(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.#startsSettled(CACHE_WRITE_WAIT_MS);
  }

  /** Resolves once every attempt started on purpose has settled (also those started meanwhile), or after `maxMs`. */
  async #startsSettled(maxMs: number): Promise<void> {
    if (this.#starting.size === 0) return;
    // One promise for every waiter: a cold start of a hundred servers has a hundred cache writes waiting.
    if (!this.#noneStarting) {
      let resolve!: () => void;
      const settled = new Promise<void>((done) => {
        resolve = done;
      });
      this.#noneStarting = { settled, resolve };
    }
    const stop = new AbortController();
    await Promise.race([this.#noneStarting.settled, delay(maxMs, stop.signal)]);
    stop.abort();
  }
}

/** What an attempt that takes no slot holds. */
const NO_SLOT: StartSlot = { release() {} };

/**
 * Holds stdio launches from {@link LAUNCH_HOLD_MS} before the startup gate
 * (`gateMs` from now) when `wanted()` says then that the gate will defer
 * something (on a cold start every pending server is waited for anyway, and
 * a hold would only make that wait longer). Returns what ends the hold.
 */
export function holdLaunchesBeforeGate(gateMs: number, wanted: () => boolean): () => void {
  const holdAt = gateMs - LAUNCH_HOLD_MS;
  if (holdAt <= 0) return () => {};
  let release: (() => void) | undefined;
  const timer = setTimeout(() => {
    if (wanted()) release = holdLaunches();
  }, holdAt);
  return () => {
    clearTimeout(timer);
    release?.();
  };
}

/** Options of {@link passStartupGate}. */
export interface StartupGateOptions {
  /** How long to wait for every attempt before using the cache. */
  startupTimeoutMs: number;
  /** How long to wait, after that, for pending attempts without a cache entry. `undefined`: until they settle. */
  maxStartupWaitMs: number | undefined;
  /** `"cache-first"` passes as soon as every attempt settled or has a cache entry (never later than the gate). */
  mode: MCPStartupMode;
  /**
   * When the gate's time started (`monotonicMs()`): the call that started
   * the attempts, so that the time spent starting them counts. @default now
   */
  startedAt?: number;
  /**
   * Offers the cached tools of every attempt still pending at the gate, all at
   * once (one rebuild of the tools, not one per server); returns the attempts
   * whose cached tools it used. The others are waited for.
   */
  defer(offers: readonly DeferOffer[]): ReadonlySet<Attempt>;
  /**
   * Told of the attempts without cached tools that the gate did not wait for
   * (`missed-before`), or stopped waiting for (`ran-out`), still pending.
   */
  notWaitedFor(attempts: readonly Attempt[], reason: MCPNotWaitedFor["reason"]): void;
}

/** A pending attempt's cached tools, offered at the startup gate to stand in as deferred tools. */
export interface DeferOffer {
  attempt: Attempt;
  cached: MCPToolDefinition[];
}

/** The startup gate of the design document (ms). */
export const STARTUP_TIMEOUT_MS = 250;

const settled = (attempt: Attempt): Promise<unknown> => attempt.done.catch(() => undefined);

/** Settles once the attempt settled or its late cache read found an entry, whichever is first. */
function settledOrLate(attempt: Attempt): Promise<unknown> {
  return Promise.race([settled(attempt), attempt.late.then((cached) => cached ?? settled(attempt))]);
}

/**
 * Whether a pending attempt without cached tools is not waited for: at its
 * server's last start the wait ran out with it still starting (the cache's
 * note), and this wait is no longer than that one. A longer bound than the
 * one it missed, or none, waits for it again.
 */
function missedBefore(attempt: Attempt, maxStartupWaitMs: number | undefined): boolean {
  const missed = attempt.missedStartup;
  return missed !== undefined && maxStartupWaitMs !== undefined && maxStartupWaitMs <= missed.waitMs;
}

/** Resolves once `ready` settled for every attempt, or after `ms` (never, for `undefined`), whichever comes first. */
async function readyWithin(
  attempts: readonly Attempt[],
  ms: number | undefined,
  ready: (attempt: Attempt) => Promise<unknown> = settled,
): Promise<void> {
  const stop = new AbortController();
  await Promise.race([Promise.all(attempts.map(ready)), delay(ms, stop.signal)]);
  stop.abort();
}

/**
 * The startup gate (docs/architecture.md): waits until every attempt settled
 * (in `"cache-first"` mode: settled or found in the cache) or
 * `startupTimeoutMs` passed since `startedAt`, whichever is first. Then the
 * attempts still pending are deferred with their cached tools, together (read
 * while they connected, so the gate never waits on the cache); those without
 * a cache entry are waited for, at most `maxStartupWaitMs`, unless the wait
 * ran out on them at their last start. A cache read that timed out stays
 * wanted: its entry, landing first, ends the wait for its server.
 */
export async function passStartupGate(
  attempts: readonly Attempt[],
  options: StartupGateOptions,
): Promise<void> {
  // The launch hold before the gate helps only a gate that will defer something (see holdLaunchesBeforeGate).
  const maxWait = options.maxStartupWaitMs;
  let unread = attempts.length;
  let hits = 0;
  for (const attempt of attempts) {
    void attempt.cached.then((cached) => {
      unread -= 1;
      if (cached !== null || missedBefore(attempt, maxWait)) hits += 1;
    });
  }
  // In cache-first mode an attempt is ready once it settled, its cache read found an entry
  // (in time or late), or it is not to be waited for.
  const settledOrCached = (attempt: Attempt): Promise<unknown> =>
    Promise.race([
      settled(attempt),
      attempt.cached.then((cached) => cached ?? (missedBefore(attempt, maxWait) || settledOrLate(attempt))),
    ]);
  const elapsed = options.startedAt === undefined ? 0 : monotonicMs() - options.startedAt;
  const gateMs = Math.max(0, options.startupTimeoutMs - elapsed);
  const endHold =
    attempts.length > 0 ? holdLaunchesBeforeGate(gateMs, () => hits > 0 || unread > 0) : () => {};
  const waitFor: Attempt[] = [];
  try {
    await readyWithin(attempts, gateMs, options.mode === "cache-first" ? settledOrCached : settled);
    // Still held while a late cache read is awaited: a launch now would delay the return.
    const offers: DeferOffer[] = [];
    const passedOver: Attempt[] = [];
    for (const attempt of attempts) {
      if (attempt.outcome) continue;
      // A late read that already landed counts as found.
      const cached = (await attempt.cached) ?? attempt.cachedEntry?.tools ?? null;
      if (cached !== null) offers.push({ attempt, cached });
      else if (missedBefore(attempt, maxWait)) passedOver.push(attempt);
      else waitFor.push(attempt);
    }
    // An attempt that settled while later reads were awaited keeps its outcome (live tools or its error).
    const pending = offers.filter(({ attempt }) => !attempt.outcome);
    const used = pending.length > 0 ? options.defer(pending) : new Set<Attempt>();
    for (const { attempt } of pending) if (!used.has(attempt)) waitFor.push(attempt);
    const notWaited = passedOver.filter((attempt) => !attempt.outcome);
    if (notWaited.length > 0) options.notWaitedFor(notWaited, "missed-before");
  } finally {
    endHold();
  }
  if (waitFor.length === 0) return;
  // A read that timed out is still wanted: an entry that lands before the server is up stands
  // in for it (deferred tools), during the wait and after it, instead of the server being waited for.
  const lateDeferred = new Set<Attempt>();
  for (const attempt of waitFor) {
    void attempt.late.then((cached) => {
      if (cached === null || attempt.outcome) return;
      for (const used of options.defer([{ attempt, cached }])) lateDeferred.add(used);
    });
  }
  await readyWithin(waitFor, maxWait, settledOrLate);
  const ranOut = waitFor.filter((attempt) => !attempt.outcome && !lateDeferred.has(attempt));
  if (ranOut.length > 0) options.notWaitedFor(ranOut, "ran-out");
}

/** The `startupMode` option, checked. @throws McpRtError `CONFIG_INVALID` naming the option for another value. */
export function resolveStartupMode(mode: MCPStartupMode | undefined): MCPStartupMode {
  if (mode === undefined) return "gate";
  if (mode === "gate" || mode === "cache-first") return mode;
  throw new McpRtError(
    "CONFIG_INVALID",
    `MCPManager option startupMode: expected "gate" or "cache-first", got ${JSON.stringify(mode)}`,
  );
}
