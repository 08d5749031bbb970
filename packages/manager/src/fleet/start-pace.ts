import { holdLaunches } from "@mcp-rt/client/light";
import { isStdioConfig } from "@mcp-rt/config";
import { delay } from "../abortable.js";
import type { Attempt } from "../server/attempt.js";
import type { StartPacing, StartSlot } from "../server/supervisor-context.js";
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
 * gate itself (`passStartupGate`, startup-gate.ts) for each `connectServers`.
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
        // The start waits for a server without a cache entry, unless its note says it missed the wait or failed last time.
        urgent: !attempt.reconnect && entry === null && !attempt.missedStartup && !attempt.failedStartup,
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
    // One the gate will not wait for (its note says it missed the wait or failed before) launches after the handoff too.
    if ((await attempt.cached) === null && !attempt.missedStartup && !attempt.failedStartup) return;
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
