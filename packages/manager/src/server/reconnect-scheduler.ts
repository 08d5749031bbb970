import { monotonicMs } from "@mcp-rt/config/util";
import { ReconnectPolicy, type ReconnectStep, type ResolvedReconnectOptions } from "./reconnect-policy.js";
import type { ServerRecord } from "./server-record.js";

/**
 * Runs the reconnect timers of servers by their {@link ReconnectPolicy}, kept
 * on each server's record (`record.outage`). A server's policy outlives a
 * successful reconnect (to notice one that keeps dying) until the record's
 * outage ends: the server was stopped, or connected on purpose.
 */
export class ReconnectScheduler {
  readonly #options: ResolvedReconnectOptions;

  constructor(options: ResolvedReconnectOptions) {
    this.#options = options;
  }

  /**
   * `record` dropped, or its automatic attempt failed: schedules the next
   * attempt (`due` runs when its timer fires, unless the outage ended
   * meanwhile) and returns the step taken, or returns the breaker's verdict.
   */
  retry(record: ServerRecord, due: () => void): ReconnectStep {
    const outage = record.outageOf(() => new ReconnectPolicy(this.#options));
    outage.cancel();
    const step = outage.policy.next(monotonicMs());
    if (!step.retry) {
      record.endOutage();
      return step;
    }
    outage.schedule(step.delayMs, () => {
      if (record.outage === outage) due();
    });
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
