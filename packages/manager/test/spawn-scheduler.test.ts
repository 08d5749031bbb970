import { availableParallelism } from "node:os";
import { McpRtError } from "@mcp-rt/config";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  DEFAULT_MAX_HOLD_MS,
  type SpawnRequest,
  SpawnScheduler,
  type SpawnSlot,
} from "../src/fleet/spawn-scheduler.js";

/** Requests `requests` in this order; `granted` lists the names in the order their slots came. */
function queue(scheduler: SpawnScheduler, requests: SpawnRequest[]) {
  const granted: string[] = [];
  const slots = new Map<string, SpawnSlot>();
  const settled = requests.map((request) =>
    scheduler.acquire(request).then((slot) => {
      granted.push(request.name);
      slots.set(request.name, slot);
      return slot;
    }),
  );
  return { granted, slots, settled };
}

/** Lets every resolved promise run its callbacks. */
const flush = () => vi.advanceTimersByTimeAsync(0);

describe("SpawnScheduler", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets at most maxConcurrentStarts hold a slot, the next going when one is released", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 2 });
    const { granted, slots } = queue(
      scheduler,
      ["a", "b", "c", "d"].map((name) => ({ name })),
    );
    await flush();
    expect(granted).toEqual(["a", "b"]);
    expect(scheduler.active).toBe(2);
    expect(scheduler.queued).toEqual(["c", "d"]);

    slots.get("b")?.release();
    await flush();
    expect(granted).toEqual(["a", "b", "c"]);
    expect(scheduler.active).toBe(2);
    slots.get("a")?.release();
    slots.get("c")?.release();
    await flush();
    expect(granted).toEqual(["a", "b", "c", "d"]);
    expect(scheduler.active).toBe(1);
  });

  it("defaults to as many slots as the machine has cores", () => {
    expect(new SpawnScheduler().maxConcurrentStarts).toBe(availableParallelism());
  });

  it("with Infinity, gives every start its slot at once (no queue, no hold timer)", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: Number.POSITIVE_INFINITY });
    const { granted } = queue(
      scheduler,
      Array.from({ length: 50 }, (_, i) => ({ name: `s${i}` })),
    );
    await flush();
    expect(granted).toHaveLength(50);
    expect(scheduler.queued).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("says how long a start queued for its slot", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    const { slots } = queue(scheduler, [{ name: "first" }, { name: "second" }]);
    await flush();
    expect(slots.get("first")?.queuedMs).toBe(0);
    await vi.advanceTimersByTimeAsync(700);
    slots.get("first")?.release();
    await flush();
    expect(slots.get("second")?.queuedMs).toBe(700);
  });

  it("releases a slot on its own after maxHoldMs, so a hung start never holds the queue", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1, maxHoldMs: 500 });
    const { granted, slots } = queue(scheduler, [{ name: "hung" }, { name: "next" }]);
    await flush();
    expect(granted).toEqual(["hung"]);
    await vi.advanceTimersByTimeAsync(499);
    expect(granted).toEqual(["hung"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toEqual(["hung", "next"]);
    expect(slots.get("next")?.queuedMs).toBe(500);
    // The hung start's own release, later, gives nothing back twice.
    slots.get("hung")?.release();
    expect(scheduler.active).toBe(1);
  });

  it(`holds a slot at most ${DEFAULT_MAX_HOLD_MS} ms by default`, async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    const { granted } = queue(scheduler, [{ name: "slow" }, { name: "next" }]);
    await vi.advanceTimersByTimeAsync(DEFAULT_MAX_HOLD_MS - 1);
    expect(granted).toEqual(["slow"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toEqual(["slow", "next"]);
  });

  it("release() is idempotent: a slot released twice frees one place", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    const { granted, slots } = queue(
      scheduler,
      ["a", "b", "c"].map((name) => ({ name })),
    );
    await flush();
    const a = slots.get("a");
    a?.release();
    a?.release();
    await flush();
    expect(granted).toEqual(["a", "b"]);
    expect(scheduler.active).toBe(1);
    expect(scheduler.queued).toEqual(["c"]);
  });

  it("releases with `using`", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    {
      using _slot = await scheduler.acquire({ name: "a" });
      expect(scheduler.active).toBe(1);
    }
    expect(scheduler.active).toBe(0);
  });

  it("takes an aborted request out of the queue and rejects with the signal's reason", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    const stop = new AbortController();
    const { granted, slots, settled } = queue(scheduler, [
      { name: "a" },
      { name: "gone", signal: stop.signal },
      { name: "c" },
    ]);
    await flush();
    stop.abort(new Error("disconnected"));
    await expect(settled[1]).rejects.toThrow("disconnected");
    expect(scheduler.queued).toEqual(["c"]);
    slots.get("a")?.release();
    await flush();
    expect(granted).toEqual(["a", "c"]);
  });

  it("rejects at once for a signal already aborted, taking no slot", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    await expect(scheduler.acquire({ name: "a", signal: AbortSignal.abort() })).rejects.toThrow();
    expect(scheduler.active).toBe(0);
  });

  it("keeps a slot handed over before the abort until it is released", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    const stop = new AbortController();
    const slot = await scheduler.acquire({ name: "a", signal: stop.signal });
    stop.abort();
    expect(scheduler.active).toBe(1);
    slot.release();
    expect(scheduler.active).toBe(0);
  });

  it("orders urgent starts first, then by expectedMs ascending, unknown last, ties first come first served", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    const { granted, slots } = queue(scheduler, [
      { name: "running" },
      { name: "cached-unknown" },
      { name: "cached-slow", expectedMs: 3000 },
      { name: "urgent-unknown", urgent: true },
      { name: "cached-fast", expectedMs: 200 },
      { name: "urgent-slow", urgent: true, expectedMs: 2500 },
      { name: "urgent-fast", urgent: true, expectedMs: 300 },
      { name: "cached-fast-2", expectedMs: 200 },
      { name: "urgent-unknown-2", urgent: true },
    ]);
    const expected = [
      "urgent-fast",
      "urgent-slow",
      "urgent-unknown",
      "urgent-unknown-2",
      "cached-fast",
      "cached-fast-2",
      "cached-slow",
      "cached-unknown",
    ];
    await flush();
    expect(scheduler.queued).toEqual(expected);
    for (const _ of expected) {
      slots.get(granted.at(-1) ?? "")?.release();
      await flush();
    }
    expect(granted).toEqual(["running", ...expected]);
  });

  it("promote() moves a queued start to the front, ahead of urgent ones, promoted ones in promotion order", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    queue(scheduler, [
      { name: "running" },
      { name: "urgent", urgent: true },
      { name: "deferred-a", expectedMs: 100 },
      { name: "deferred-b", expectedMs: 5000 },
    ]);
    await flush();
    expect(scheduler.queued).toEqual(["urgent", "deferred-a", "deferred-b"]);
    expect(scheduler.promote("deferred-b")).toBe(true);
    expect(scheduler.promote("deferred-a")).toBe(true);
    expect(scheduler.queued).toEqual(["deferred-b", "deferred-a", "urgent"]);
    // Promoting one already promoted keeps its place.
    expect(scheduler.promote("deferred-a")).toBe(true);
    expect(scheduler.queued).toEqual(["deferred-b", "deferred-a", "urgent"]);
  });

  it("promote() of a server not queued (running, or unknown) changes nothing", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    queue(scheduler, [{ name: "running" }, { name: "a" }, { name: "b" }]);
    await flush();
    expect(scheduler.promote("running")).toBe(false);
    expect(scheduler.promote("nobody")).toBe(false);
    expect(scheduler.queued).toEqual(["a", "b"]);
  });

  it("a new request does not pass one already waiting when a slot frees (no barging)", async () => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    const { granted, slots } = queue(scheduler, [{ name: "a" }, { name: "b" }]);
    await flush();
    slots.get("a")?.release();
    const late = scheduler.acquire({ name: "late" });
    await flush();
    expect(granted).toEqual(["a", "b"]);
    expect(scheduler.queued).toEqual(["late"]);
    slots.get("b")?.release();
    await expect(late).resolves.toMatchObject({ queuedMs: 0 });
  });

  it.each([0, -1, 1.5, Number.NaN, "2" as unknown as number])(
    "refuses maxConcurrentStarts %s with CONFIG_INVALID naming the option",
    (value) => {
      const make = () => new SpawnScheduler({ maxConcurrentStarts: value });
      expect(make).toThrow(McpRtError);
      expect(make).toThrow(/maxConcurrentStarts: expected a whole number ≥ 1 .*or Infinity/);
      try {
        make();
      } catch (error) {
        expect(McpRtError.isInstance(error) && error.code).toBe("CONFIG_INVALID");
      }
    },
  );

  it.each([0, -5, Number.POSITIVE_INFINITY, Number.NaN])("refuses maxHoldMs %s", (value) => {
    expect(() => new SpawnScheduler({ maxHoldMs: value })).toThrow(/maxHoldMs: expected a positive number/);
  });

  it.each([-1, Number.NaN])("refuses expectedMs %s, naming the server", async (expectedMs) => {
    const scheduler = new SpawnScheduler({ maxConcurrentStarts: 1 });
    await expect(scheduler.acquire({ name: "bad", expectedMs })).rejects.toThrow(
      /acquire\("bad"\): expectedMs must be a number/,
    );
    expect(scheduler.active).toBe(0);
  });
});
