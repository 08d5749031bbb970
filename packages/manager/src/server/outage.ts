import type { ReconnectPolicy } from "./reconnect-policy.js";

/**
 * The reconnect bookkeeping of a server since it last dropped: its backoff and
 * circuit breaker, and the timer of its next attempt. The timer is unref'd:
 * a pending reconnect never keeps the process alive.
 */
export class Outage {
  /** Its backoff and circuit breaker. */
  readonly policy: ReconnectPolicy;
  #timer: NodeJS.Timeout | undefined;

  constructor(policy: ReconnectPolicy) {
    this.policy = policy;
  }

  /** Runs `due` after `delayMs` (unref'd: a pending reconnect never keeps the process alive), replacing a timer set before. */
  schedule(delayMs: number, due: () => void): void {
    this.cancel();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      due();
    }, delayMs);
    this.#timer.unref();
  }

  /** Calls off the next attempt, if one is scheduled. */
  cancel(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
