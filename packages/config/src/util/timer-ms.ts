/** The longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const MAX_TIMER_MS: number = 2 ** 31 - 1;

/** A time limit as timers take it: at most {@link MAX_TIMER_MS}, so a huge one (or `Infinity`) means "no limit" in practice. */
export function timerMs(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}
