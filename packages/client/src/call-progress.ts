import type { Client, Progress } from "@modelcontextprotocol/client";

/** A tool call in flight, as {@link ProgressCalls} watches it. */
export interface WatchedCall {
  /** The `progressToken` it sends: set by `add`. */
  token: number;
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
 * sent, with their limits without progress. `callTool` asks for progress with
 * tokens of its own rather than the SDK's `onprogress`, which makes the SDK
 * build every request again on a slow path (bench/README.md, "Why the call
 * path is shaped so"); {@link watchProgress} routes the connection's progress
 * notifications here. The calls are an array scanned from the newest, not a
 * `Map`: few run at once on one connection, and a Map's set and delete cost
 * more. The limits share one timer, set for the earliest deadline, so a call
 * sets none of its own; it never keeps the process alive (the SDK's own limit
 * on each request does, while it runs).
 */
export class ProgressCalls {
  #next = 0;
  readonly #calls: WatchedCall[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires (Infinity: not set). */
  #timerAt = Number.POSITIVE_INFINITY;
  /** The controller the last call to settle unaborted left for the next one. */
  #spare: AbortController | undefined;

  /**
   * A controller for a new call's request: the one a settled call left, or a
   * new one. Creating one is dear (bench/RESULTS.md, the SDK v2 re-measure),
   * and one never aborted is as good as new once the SDK removed its listener,
   * as it does when each request ends (test/sdk-boundary.test.ts pins that).
   */
  takeController(): AbortController {
    const spare = this.#spare;
    this.#spare = undefined;
    return spare ?? new AbortController();
  }

  /** Keeps a settled call's controller for the next call, unless it was aborted. */
  giveBack(controller: AbortController): void {
    if (!controller.signal.aborted) this.#spare = controller;
  }

  /** Starts watching a call; returns the token it sends. */
  add(call: WatchedCall): number {
    const token = ++this.#next;
    call.token = token;
    call.deadline = performance.now() + call.quietMs;
    this.#calls.push(call);
    if (call.deadline < this.#timerAt) this.#setTimer(call.deadline);
    return token;
  }

  /** Forgets a call once it settled; later notifications with its token are dropped. */
  delete(token: number): void {
    const calls = this.#calls;
    const at = this.#indexOf(token);
    if (at < 0) return;
    // The last call takes the place of the one that settled (usually it is the last).
    const last = calls.pop() as WatchedCall;
    if (at < calls.length) calls[at] = last;
  }

  /** Hands a progress notification to the call that sent its token, restarting its limit; drops an unknown one. */
  deliver(params: { progressToken: string | number } & Progress): void {
    const { progressToken, ...progress } = params;
    const at = this.#indexOf(Number(progressToken));
    if (at < 0) return;
    const call = this.#calls[at] as WatchedCall;
    call.deadline = performance.now() + call.quietMs;
    call.progressed(progress);
  }

  #indexOf(token: number): number {
    const calls = this.#calls;
    for (let at = calls.length - 1; at >= 0; at--) if ((calls[at] as WatchedCall).token === token) return at;
    return -1;
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
    // A copy: what a call does when told of its limit is not this loop's to foresee.
    for (const call of [...this.#calls]) {
      // A timer may fire a fraction of a millisecond before the deadline it was set for.
      if (call.deadline <= now) call.tooQuiet();
      else next = Math.min(next, call.deadline);
    }
    if (next < Number.POSITIVE_INFINITY) this.#setTimer(next);
  };
}

/** Each connection's {@link ProgressCalls}, by its SDK client. */
const callsInFlight = new WeakMap<Client, ProgressCalls>();

/** The calls in flight of a connection that {@link watchProgress} set up. */
export function progressCallsOf(client: Client): ProgressCalls {
  return callsInFlight.get(client) as ProgressCalls;
}

/** Routes a new connection's progress notifications to its calls in flight, in place of the SDK's handler. */
export function watchProgress(client: Client): void {
  const calls = new ProgressCalls();
  callsInFlight.set(client, calls);
  client.setNotificationHandler("notifications/progress", (notification) =>
    calls.deliver(notification.params),
  );
}
