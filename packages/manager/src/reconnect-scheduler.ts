import { ReconnectPolicy, type ResolvedReconnectOptions } from "./reconnect-policy.js";

/** Options of {@link ReconnectScheduler}. */
export interface ReconnectSchedulerOptions {
  /** The backoff and breaker settings. */
  policy: ResolvedReconnectOptions;
  /** Returns a number in [0, 1), for the jitter. @default Math.random */
  random?: () => number;
  /** An attempt of `name` was scheduled in `delayMs` (called once its timer is set). */
  onScheduled(name: string, attempt: number, delayMs: number): void;
  /** Time for the scheduled attempt of `name`: start it. */
  onAttempt(name: string): void;
  /** The circuit breaker of `name` opened: it is no longer reconnecting. */
  onGiveUp(name: string, attempts: number, failedBursts: number): void;
}

interface Outage {
  readonly policy: ReconnectPolicy;
  /** Set while waiting for the next attempt. */
  timer?: NodeJS.Timeout;
  /** True from the drop until an attempt connects, the breaker opens or it is cancelled. */
  reconnecting: boolean;
}

/**
 * Runs the reconnect timers of many servers by their {@link ReconnectPolicy}.
 * Timers are unref'd: a pending reconnect never keeps the process alive.
 * A server's policy outlives a successful reconnect (to notice one that keeps
 * dying) until it is cancelled: disconnected, or connected on purpose.
 */
export class ReconnectScheduler {
  readonly #options: ReconnectSchedulerOptions;
  readonly #outages = new Map<string, Outage>();

  constructor(options: ReconnectSchedulerOptions) {
    this.#options = options;
  }

  /** True while `name` is being reconnected: waiting for an attempt, or in one. */
  isReconnecting(name: string): boolean {
    return this.#outages.get(name)?.reconnecting ?? false;
  }

  /** Attempts of `name` since it was last up for good; 0 when it is not reconnecting. */
  attempts(name: string): number {
    const outage = this.#outages.get(name);
    return outage?.reconnecting ? outage.policy.attempts : 0;
  }

  /** True when `name` dropped and has not been back for good since (see `ReconnectPolicy.inOutage`). */
  inOutage(name: string): boolean {
    return this.#outages.get(name)?.policy.inOutage(performance.now()) ?? false;
  }

  /** `name` dropped, or its attempt failed: schedules the next attempt, or gives up. */
  retry(name: string): void {
    let outage = this.#outages.get(name);
    if (!outage) {
      outage = {
        policy: new ReconnectPolicy(this.#options.policy, this.#options.random),
        reconnecting: true,
      };
      this.#outages.set(name, outage);
    }
    if (outage.timer) clearTimeout(outage.timer);
    outage.reconnecting = true;
    const step = outage.policy.next(performance.now());
    if (!step.retry) {
      this.#outages.delete(name);
      this.#options.onGiveUp(name, step.attempts, step.failedBursts);
      return;
    }
    const current = outage;
    current.timer = setTimeout(() => {
      delete current.timer;
      if (this.#outages.get(name) === current) this.#options.onAttempt(name);
    }, step.delayMs);
    current.timer.unref();
    this.#options.onScheduled(name, step.attempt, step.delayMs);
  }

  /** An attempt of `name` connected: it is no longer reconnecting. */
  connected(name: string): void {
    const outage = this.#outages.get(name);
    if (!outage) return;
    outage.reconnecting = false;
    outage.policy.connected(performance.now());
  }

  /** Forgets `name` at once: its timer is cleared and its counts start over next time. */
  cancel(name: string): void {
    const outage = this.#outages.get(name);
    if (outage?.timer) clearTimeout(outage.timer);
    this.#outages.delete(name);
  }
}
