import type { Progress } from "@modelcontextprotocol/sdk/types.js";

/** A tool call in flight, as {@link ProgressCalls} watches it. */
export interface WatchedCall {
  /** The limit without progress, in ms (at most a timer's longest delay). */
  readonly quietMs: number;
  /** When the limit passes, on `performance.now()`'s clock: set by `add`, moved on by each progress notification. */
  deadline: number;
  /** A progress notification for the call arrived. */
  progressed(progress: Progress): void;
  /** `quietMs` passed without an answer or a progress notification. */
  tooQuiet(): void;
}

/**
 * The tool calls in flight on one connection, by the `progressToken` each
 * sent, with their limits without progress.
 *
 * `callTool` asks for progress itself (a token of its own in `_meta`) instead
 * of through the SDK's `onprogress`: given `onprogress`, the SDK builds every
 * request again with two more spread-then-property object literals, which
 * Node 20 builds on a slow path, and that was most of what a call cost over
 * the raw SDK's `callTool` (about 9 µs of host CPU each; bench/RESULTS.md,
 * scenario 3). The connection routes every progress notification here (the
 * SDK's own handler would only find no request of its own waiting for it).
 *
 * The limits share one timer, set for the earliest deadline and left running
 * when a call ends: a call costs no timer of its own (setting and clearing
 * one cost about 0.5 µs and 500 bytes a call). The timer never keeps the
 * process alive: the SDK's own limit on each request does, while it runs.
 */
export class ProgressCalls {
  #next = 0;
  readonly #calls = new Map<number, WatchedCall>();
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires (Infinity: not set). */
  #timerAt = Number.POSITIVE_INFINITY;

  /** Starts watching a call; returns the token it sends. */
  add(call: WatchedCall): number {
    const token = ++this.#next;
    call.deadline = performance.now() + call.quietMs;
    this.#calls.set(token, call);
    if (call.deadline < this.#timerAt) this.#setTimer(call.deadline);
    return token;
  }

  /** Forgets a call once it settled; later notifications with its token are dropped. */
  delete(token: number): void {
    this.#calls.delete(token);
  }

  /**
   * Hands a `notifications/progress` to the call that sent its token and
   * restarts its limit; an unknown or late token is dropped.
   */
  deliver(params: { progressToken: string | number } & Progress): void {
    const { progressToken, ...progress } = params;
    const call = this.#calls.get(Number(progressToken));
    if (!call) return;
    call.deadline = performance.now() + call.quietMs;
    call.progressed(progress);
  }

  #setTimer(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(this.#sweep, Math.max(1, at - performance.now())).unref();
  }

  /** Tells each call past its deadline, and sets the timer for the next one. */
  readonly #sweep = (): void => {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const call of this.#calls.values()) {
      // A timer may fire a fraction of a millisecond before the deadline it was set for.
      if (call.deadline <= now) call.tooQuiet();
      else next = Math.min(next, call.deadline);
    }
    if (next < Number.POSITIVE_INFINITY) this.#setTimer(next);
  };
}
