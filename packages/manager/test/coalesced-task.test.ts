import { describe, expect, it } from "vitest";
import { createCoalescedTask } from "../src/coalesced-task.js";

/** A run that waits until released, counting starts. */
function gatedRuns() {
  const releases: Array<() => void> = [];
  let started = 0;
  const run = () =>
    new Promise<void>((resolve) => {
      started++;
      releases.push(resolve);
    });
  const releaseNext = async () => {
    // Lets the task start its next run before the test looks.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    releases.shift()?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { run, releaseNext, started: () => started };
}

describe("createCoalescedTask", () => {
  it("runs once per trigger when triggers do not overlap", async () => {
    const gate = gatedRuns();
    const task = createCoalescedTask({ run: gate.run, onError: () => {} });
    task.trigger();
    await gate.releaseNext();
    await task.idle();
    task.trigger();
    await gate.releaseNext();
    await task.idle();
    expect(gate.started()).toBe(2);
  });

  it("a burst of triggers gives one run in flight and one queued", async () => {
    const gate = gatedRuns();
    const task = createCoalescedTask({ run: gate.run, onError: () => {} });
    // Triggers before the run has started are all served by it.
    for (let i = 0; i < 10; i++) task.trigger();
    await Promise.resolve();
    expect(gate.started()).toBe(1);
    // Triggers while it runs queue exactly one more run.
    for (let i = 0; i < 50; i++) task.trigger();
    await gate.releaseNext();
    expect(gate.started()).toBe(2);
    for (let i = 0; i < 50; i++) task.trigger();
    await gate.releaseNext();
    expect(gate.started()).toBe(3);
    await gate.releaseNext();
    await task.idle();
    expect(gate.started()).toBe(3);
  });

  it("reports a failing run and still runs the queued one", async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const task = createCoalescedTask({
      run: async () => {
        runs++;
        if (runs === 1) throw new Error("first fails");
      },
      onError: (error) => errors.push(error),
    });
    task.trigger();
    await Promise.resolve();
    task.trigger();
    await task.idle();
    expect(runs).toBe(2);
    expect(errors).toEqual([new Error("first fails")]);
  });

  it("starts runs at least minIntervalMs apart, however often a run asks for the next", async () => {
    const controller = new AbortController();
    const throttled: number[] = [];
    let runs = 0;
    const task = createCoalescedTask({
      run: async () => {
        runs++;
        // A storm: every run asks for another at once.
        task.trigger();
      },
      onError: () => {},
      minIntervalMs: 100,
      signal: controller.signal,
      onThrottle: (inARow) => throttled.push(inARow),
    });
    task.trigger();
    await new Promise((resolve) => setTimeout(resolve, 550));
    controller.abort();
    await task.idle();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs).toBeLessThanOrEqual(7);
    expect(throttled.slice(0, 3)).toEqual([1, 2, 3]);
  });
});
