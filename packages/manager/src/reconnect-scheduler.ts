import { monotonicMs } from "@mcp-rt/config/util";
import { ReconnectPolicy, type ReconnectStep, type ResolvedReconnectOptions } from "./reconnect-policy.js";
import type { ServerRecord } from "./server-record.js";

/**
 * Runs the reconnect timers of servers by their {@link ReconnectPolicy}, kept
 * on each server's record (`record.outage`). Timers are unref'd: a pending
 * reconnect never keeps the process alive. A server's policy outlives a
 * successful reconnect (to notice one that keeps dying) until the record's
 * outage is cleared: the server was stopped, or connected on purpose.
 */
export class ReconnectScheduler {
  readonly #options: ResolvedReconnectOptions;

  constructor(options: ResolvedReconnectOptions) {
    this.#options = options;
  }

  /**
   * `record` dropped, or its automatic attempt failed: schedules the next
   * attempt (`due` runs when its timer fires, unless the outage was cleared
   * meanwhile) and returns the step taken, or returns the breaker's verdict.
   */
  retry(record: ServerRecord, due: () => void): ReconnectStep {
    record.outage ??= { policy: new ReconnectPolicy(this.#options) };
    const outage = record.outage;
    if (outage.timer) clearTimeout(outage.timer);
    delete outage.timer;
    const step = outage.policy.next(monotonicMs());
    if (!step.retry) {
      delete record.outage;
      return step;
    }
    outage.timer = setTimeout(() => {
      delete outage.timer;
      if (record.outage === outage) due();
    }, step.delayMs);
    outage.timer.unref();
    return step;
  }

  /** An attempt of `record` connected: the counts start over if it stays up for `maxDelayMs`. */
  connected(record: ServerRecord): void {
    record.outage?.policy.connected(monotonicMs());
  }

  /** True when `record` dropped and has not been back for good since: a new drop is part of the same outage. */
  inOutage(record: ServerRecord): boolean {
    return record.outage?.policy.inOutage(monotonicMs()) ?? false;
  }
}
