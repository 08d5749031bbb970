import { setTimeout as sleep } from "node:timers/promises";
import { monotonicMs } from "@mcp-rt/config/util";

/** A task that runs on demand, never twice at once. */
export interface CoalescedTask {
  /**
   * Asks for a run: starts one now, or, while one is in flight, queues one
   * more — however often it is asked for in the meantime.
   */
  trigger(): void;
  /** Settles once nothing is in flight or queued. */
  idle(): Promise<void>;
}

/** Options of {@link createCoalescedTask}. */
export interface CoalescedTaskOptions {
  /** What a run does. */
  run: () => Promise<void>;
  /** Where a run that throws goes; the next run still happens. */
  onError: (error: unknown) => void;
  /** The shortest time from one run's start to the next one's; a run asked for sooner waits. @default 0 */
  minIntervalMs?: number;
  /** Called each time a run has to wait for `minIntervalMs`, with how many runs in a row had to. */
  onThrottle?: (inARow: number) => void;
  /** Ends the waiting and the queue: no run starts once it is aborted. */
  signal?: AbortSignal;
}

/**
 * Coalesces requests for `run` (e.g. a burst of `list_changed`
 * notifications gives one re-list in flight and at most one queued), and
 * rate-limits it: runs start at least `minIntervalMs` apart, so a source
 * that asks again after every run gets one run per interval, not a loop. A
 * run that throws goes to `onError`; the next run still happens.
 *
 * @example
 * ```ts
 * const relist = createCoalescedTask({
 *   run: () => refresh(),
 *   onError: (error) => logger.warn(String(error)),
 *   minIntervalMs: 1000,
 * });
 * connection.onToolsChanged(() => relist.trigger());
 * ```
 */
export function createCoalescedTask(options: CoalescedTaskOptions): CoalescedTask {
  const { run, onError, minIntervalMs = 0, onThrottle, signal } = options;
  let running: Promise<void> | undefined;
  let queued = false;
  let lastStart = Number.NEGATIVE_INFINITY;
  let throttled = 0;
  const loop = async (): Promise<void> => {
    // Yields first, so that `running` is set before `run` could ask for another run.
    await undefined;
    do {
      queued = false;
      const wait = lastStart + minIntervalMs - monotonicMs();
      if (wait <= 0) throttled = 0;
      else {
        onThrottle?.(++throttled);
        // Unref'd: a throttled re-list must not keep the process alive.
        await sleep(wait, undefined, { ref: false, signal }).catch(() => {});
      }
      if (signal?.aborted) break;
      lastStart = monotonicMs();
      try {
        await run();
      } catch (error) {
        onError(error);
      }
    } while (queued);
    running = undefined;
  };
  return {
    trigger() {
      if (signal?.aborted) return;
      if (running) {
        queued = true;
        return;
      }
      running = loop();
    },
    idle() {
      return running ?? Promise.resolve();
    },
  };
}
