import { holdLaunches } from "@mcp-rt/client/light";
import { delay } from "../abortable.js";
import type { Attempt } from "../server/attempt.js";
import type { StartPacing } from "../server/server-supervisor.js";

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
 * first. The fleet owns one for all its servers: pacing how many servers
 * start together belongs beside these.
 */
export class StartPace implements StartPacing {
  /** Cache reads of starting attempts: the client is loaded after them. */
  readonly #reads = new Set<Promise<unknown>>();
  /** Attempts started on purpose (not automatic reconnects) still connecting. */
  readonly #starting = new Set<Attempt>();
  /** Resolved when the last of {@link #starting} settles; made by the first to wait for that. */
  #noneStarting: { settled: Promise<void>; resolve: () => void } | undefined;

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
   * Waits, before `attempt` loads the client and connects, until the cache
   * reads of every attempt started so far are done. The SDK and the
   * transports are loaded only then: on a warm start the cached tools are
   * handed over first, and the module load overlaps with the servers
   * starting. An attempt whose own read found nothing goes on at once: its
   * server is waited for in any mode, so nothing is handed over before it
   * anyway (a cold start launches its servers without waiting for the other
   * reads).
   */
  async beforeConnect(attempt: Attempt): Promise<void> {
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
