import { getHeapSpaceStatistics } from "node:v8";
import { childProcessesOf } from "@mcp-rt/testing";
import type { HeapMB } from "../tasks.js";

/** Milliseconds since `start` (a `performance.now()` value). */
export function since(start: number): number {
  return performance.now() - start;
}

/** Starts counting this process's CPU time; the returned function gives the ms used since. */
export function cpuTime(): () => number {
  const start = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
}

/** The peak resident set size of this process so far, in MB. */
export function peakRssMB(): number {
  // maxRSS is in kilobytes.
  return process.resourceUsage().maxRSS / 1024;
}

/** {@link HeapMB}, read without collecting anything (a collection would move the peak RSS measured). */
export function heapMB(): HeapMB {
  let youngMB = 0;
  let restUsedMB = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === "new_space") youngMB += space.space_size / 2 ** 20;
    else restUsedMB += space.space_used_size / 2 ** 20;
  }
  return { youngMB, restUsedMB };
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
 * longest time between two turns of the loop, in ms (from the moment it
 * starts, so a block right at the start counts). A stalled loop delays every
 * timer, the startup gate and the cache's read limit included; `spawn()` is
 * synchronous.
 */
export function watchEventLoop(): () => number {
  let last = performance.now();
  let longest = 0;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const timer = setInterval(tick, 5);
  return () => {
    tick();
    clearInterval(timer);
    return longest;
  };
}

/** A task's `maxConcurrentStarts` as a number (`"Infinity"` crosses to the worker as text); undefined when unset. */
export function startLimit(value: number | "Infinity" | undefined): number | undefined {
  return value === "Infinity" ? Number.POSITIVE_INFINITY : value;
}
