/**
 * Milliseconds on Node's monotonic clock, for measuring spans (the same
 * clock as `performance.now()`, another origin). The global `performance`
 * loads `perf_hooks` and its ten internal modules the first time it is
 * touched, about a millisecond of every start of an agent; `process.hrtime`
 * is there already.
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}
