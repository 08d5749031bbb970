import { describe, expect, it } from "vitest";
import {
  DEFAULT_RECONNECT_OPTIONS,
  ReconnectPolicy,
  type ReconnectStep,
  resolveReconnectOptions,
} from "../src/server/reconnect-policy.js";

const options = {
  initialDelayMs: 100,
  maxDelayMs: 1000,
  maxAttempts: 4,
  maxFailedBursts: 2,
  failedBurstWindowMs: 60_000,
  random: Math.random,
};

/** The delays of `count` steps at a fixed time, with `random` fixed to `r`. */
function delays(r: number, count: number): ReconnectStep[] {
  const policy = new ReconnectPolicy(options, () => r);
  return Array.from({ length: count }, () => policy.next(0));
}

describe("ReconnectPolicy", () => {
  it("backs off exponentially up to maxDelayMs, with full jitter", () => {
    // random → 1 (almost): the caps themselves; within a burst they double.
    expect(delays(0.999_999, 4).map((s) => s.retry && s.delayMs)).toEqual([100, 200, 400, 800]);
    // random → 0: no wait at all (full jitter goes down to zero).
    expect(delays(0, 4).map((s) => s.retry && s.delayMs)).toEqual([0, 0, 0, 0]);
    // In between: a uniform share of the cap.
    expect(delays(0.5, 4).map((s) => s.retry && s.delayMs)).toEqual([50, 100, 200, 400]);
    const capped = new ReconnectPolicy({ ...options, maxAttempts: 10 }, () => 0.999_999);
    const steps = Array.from({ length: 10 }, () => capped.next(0));
    expect(steps.map((s) => s.retry && s.delayMs).slice(4)).toEqual([1000, 1000, 1000, 1000, 1000, 1000]);
  });

  it("pauses between bursts, numbers attempts across bursts, then opens the breaker", () => {
    const policy = new ReconnectPolicy(options, () => 0);
    const steps = Array.from({ length: 9 }, (_, i) => policy.next(i * 10));
    expect(steps.slice(0, 8).map((s) => s.retry && s.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The first attempt of the second burst waits at least half of maxDelayMs.
    expect(steps[4]).toEqual({ retry: true, attempt: 5, delayMs: 500 });
    expect(steps[8]).toEqual({ retry: false, attempts: 8, failedBursts: 2 });
  });

  it("forgets failed bursts older than the window", () => {
    const policy = new ReconnectPolicy({ ...options, failedBurstWindowMs: 1000 }, () => 0);
    for (let i = 0; i < 4; i++) policy.next(0);
    // The first burst is found failed at t=100, and forgotten by the time the second fails.
    for (let i = 0; i < 4; i++) expect(policy.next(100).retry).toBe(true);
    expect(policy.next(5000).retry).toBe(true);
    for (let i = 0; i < 3; i++) policy.next(5000);
    expect(policy.next(5500)).toMatchObject({ retry: false, failedBursts: 2 });
  });

  it("starts over once a reconnected server stayed up for maxDelayMs", () => {
    const policy = new ReconnectPolicy(options, () => 0);
    for (let i = 0; i < 6; i++) policy.next(0);
    policy.connected(100);
    expect(policy.next(100 + 1000)).toEqual({ retry: true, attempt: 1, delayMs: 0 });
    expect(policy.attempts).toBe(1);
  });

  it("keeps counting for a server that dies right after it reconnects (flapping)", () => {
    const policy = new ReconnectPolicy(options, () => 0);
    const outcomes: ReconnectStep[] = [];
    for (let t = 0; t < 20; t++) {
      outcomes.push(policy.next(t * 50));
      policy.connected(t * 50 + 10);
    }
    expect(outcomes.findIndex((s) => !s.retry)).toBe(8);
  });

  it("a breaker of Infinity never opens", () => {
    const policy = new ReconnectPolicy({ ...options, maxFailedBursts: Number.POSITIVE_INFINITY }, () => 0);
    for (let i = 0; i < 1000; i++) expect(policy.next(i).retry).toBe(true);
  });
});

describe("resolveReconnectOptions", () => {
  it("fills in defaults; false turns reconnecting off", () => {
    expect(resolveReconnectOptions(undefined)).toEqual(DEFAULT_RECONNECT_OPTIONS);
    expect(resolveReconnectOptions(true)).toEqual(DEFAULT_RECONNECT_OPTIONS);
    expect(resolveReconnectOptions(false)).toBeNull();
    expect(resolveReconnectOptions({ maxAttempts: 2 })).toEqual({
      ...DEFAULT_RECONNECT_OPTIONS,
      maxAttempts: 2,
    });
    const random = () => 0.25;
    expect(resolveReconnectOptions({ random })?.random).toBe(random);
  });

  it.each([
    [{ maxAttempts: 0 }, /reconnect\.maxAttempts: expected an integer ≥ 1/],
    [{ maxAttempts: 1.5 }, /reconnect\.maxAttempts/],
    [{ maxAttempts: Number.POSITIVE_INFINITY }, /reconnect\.maxAttempts/],
    [{ initialDelayMs: -1 }, /reconnect\.initialDelayMs: expected a number ≥ 0/],
    [{ maxDelayMs: Number.NaN }, /reconnect\.maxDelayMs/],
    [{ maxDelayMs: 2 ** 31 }, /reconnect\.maxDelayMs/],
    [{ maxFailedBursts: "3" }, /reconnect\.maxFailedBursts.*got 3/],
    [
      { initialDelayMs: 5000, maxDelayMs: 1000 },
      /initialDelayMs \(5000\) is larger than reconnect\.maxDelayMs/,
    ],
    [null, /reconnect: expected a boolean or an options object/],
    [{ random: 0.5 }, /reconnect\.random: expected a function/],
  ])("rejects %o with CONFIG_INVALID naming the field", (option, message) => {
    expect(() => resolveReconnectOptions(option as never)).toThrow(message);
    expect(() => resolveReconnectOptions(option as never)).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });
});

describe("ReconnectPolicy.inOutage", () => {
  it("is true from the first drop until a reconnect stayed up for maxDelayMs", () => {
    const policy = new ReconnectPolicy(options, () => 0);
    expect(policy.inOutage(0)).toBe(false);
    policy.next(0);
    expect(policy.inOutage(10)).toBe(true);
    policy.connected(100);
    expect(policy.inOutage(500)).toBe(true);
    expect(policy.inOutage(1100)).toBe(false);
  });
});
