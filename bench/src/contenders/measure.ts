import { monitorEventLoopDelay } from "node:perf_hooks";
import { childProcessesOf } from "@mcp-rt/testing";

/** Milliseconds since `start` (a `performance.now()` value). */
export function since(start: number): number {
  return performance.now() - start;
}

/** The peak resident set size of this process so far, in MB. */
export function peakRssMB(): number {
  // maxRSS is in kilobytes.
  return process.resourceUsage().maxRSS / 1024;
}

/** How many processes this one started (and their children) are still running. */
export function processesLeft(): number {
  return childProcessesOf(process.pid).length;
}

/** Throws unless a run produced the tools it should have: a fast wrong answer is no result. */
export function expectToolCount(who: string, got: number, expected: number, detail = ""): void {
  if (got !== expected) {
    throw new Error(`${who}: expected ${expected} tools in hand, got ${got}${detail ? ` (${detail})` : ""}`);
  }
}

/**
 * Starts watching the event loop; the returned function stops and gives the
 * longest stall seen, in ms. A stalled loop delays every timer, the startup
 * gate and the cache's read limit included (`spawn()` is synchronous).
 */
export function watchEventLoop(): () => number {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return () => {
    histogram.disable();
    return histogram.max / 1e6;
  };
}
