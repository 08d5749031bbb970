import { monotonicMs } from "./monotonic-ms.js";
/** How an operation given to {@link settleWithin} ended: its value, its error, or out of time. */
export type Settled<T> = { status: "ok"; value: T } | { status: "error"; error: unknown } | SettleTimeout<T>;

/** An operation given to {@link settleWithin} that was not waited for any longer. */
export interface SettleTimeout<T> {
  status: "timeout";
  /** How long it was waited for, in ms. */
  elapsedMs: number;
  /** How late its timers fired in all, in ms: time the event loop was held by someone else. */
  lateMs: number;
  /** How much longer than the limit it was granted for that, in ms. */
  stretchMs: number;
  /** The operation, still running: what it settles with once it does. */
  operation: Promise<T>;
}

// A timer that fires this much later than asked means the event loop was held.
const STALL_MS = 5;
// However often the loop is held, the wait ends by `ms × MAX_STRETCH`.
const MAX_STRETCH = 10;

/**
 * Waits for `operation` at most `ms` milliseconds and never rejects. An
 * operation that outlives the limit keeps running; its late result is dropped.
 *
 * The limit counts only time the event loop was free to hear the operation
 * (a cache store's read, say): when the caller's own synchronous work (a burst
 * of `spawn()` calls at startup) holds the loop past the deadline, a finished
 * read is still sitting in the poll queue when the timer fires. So a late
 * timer first lets pending I/O through, then grants the operation the time it
 * was denied, up to `ms × 10`.
 */
export function settleWithin<T>(operation: () => Promise<T>, ms: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const start = monotonicMs();
    const hardLimit = start + ms * MAX_STRETCH;
    let deadline = start + ms;
    let lateMs = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: Settled<T>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const onTimer = (): void => {
      const late = monotonicMs() - deadline;
      lateMs += Math.max(0, late);
      // setImmediate runs after the poll phase, where a completed read lands.
      setImmediate(() => {
        if (settled) return;
        const now = monotonicMs();
        if (late > STALL_MS && now < hardLimit) {
          deadline = Math.min(now + late, hardLimit);
          timer = setTimeout(onTimer, deadline - now);
          return;
        }
        finish({
          status: "timeout",
          elapsedMs: now - start,
          lateMs,
          // A timer may fire a little before its deadline on this clock (Node counts it from the
          // event loop's cached time): what was granted is what passed.
          stretchMs: Math.max(0, Math.min(now, deadline) - start - ms),
          operation: running,
        });
      });
    };
    timer = setTimeout(onTimer, ms);
    let running: Promise<T>;
    try {
      running = operation();
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => finish({ status: "ok", value }),
      (error: unknown) => finish({ status: "error", error }),
    );
  });
}
