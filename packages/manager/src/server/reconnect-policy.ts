import { McpRtError } from "@mcp-rt/config";
import type { ReconnectOptions } from "../manager-types.js";

/** {@link ReconnectOptions} with every default filled in. */
export type ResolvedReconnectOptions = Required<ReconnectOptions>;

/** The fields of {@link ReconnectOptions} that are numbers. */
type NumericReconnectOption = Exclude<keyof ReconnectOptions, "random">;

/** The defaults of {@link ReconnectOptions}. */
export const DEFAULT_RECONNECT_OPTIONS: Readonly<ResolvedReconnectOptions> = Object.freeze({
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxAttempts: 5,
  maxFailedBursts: 3,
  failedBurstWindowMs: 600_000,
  random: Math.random,
});

/** The longest delay `setTimeout` takes. */
const MAX_TIMER_MS = 2_147_483_647;

/** What each field may be: integers or not, the range, and whether `Infinity` means "no limit". */
const checks: Record<
  NumericReconnectOption,
  { integer: boolean; min: number; max: number; unlimited: boolean }
> = {
  initialDelayMs: { integer: false, min: 0, max: MAX_TIMER_MS, unlimited: false },
  maxDelayMs: { integer: false, min: 0, max: MAX_TIMER_MS, unlimited: false },
  maxAttempts: { integer: true, min: 1, max: Number.MAX_SAFE_INTEGER, unlimited: false },
  maxFailedBursts: { integer: true, min: 1, max: Number.MAX_SAFE_INTEGER, unlimited: true },
  failedBurstWindowMs: { integer: false, min: 0, max: Number.MAX_SAFE_INTEGER, unlimited: true },
};

const isValid = (value: unknown, check: (typeof checks)[NumericReconnectOption]): value is number => {
  if (typeof value !== "number") return false;
  if (value === Number.POSITIVE_INFINITY) return check.unlimited;
  return value >= check.min && value <= check.max && (!check.integer || Number.isInteger(value));
};

/**
 * The manager's `reconnect` option with defaults filled in; `null` when
 * reconnecting is off (`false`). Throws `CONFIG_INVALID` naming the field for
 * a value that is not a number in range (`maxFailedBursts: Infinity`: a
 * breaker that never opens).
 */
export function resolveReconnectOptions(
  option: boolean | ReconnectOptions | undefined,
): ResolvedReconnectOptions | null {
  if (option === false) return null;
  if (option !== true && option !== undefined && (typeof option !== "object" || option === null)) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCPManager option reconnect: expected a boolean or an options object, got ${String(option)}`,
    );
  }
  const given: ReconnectOptions = option === true || option === undefined ? {} : option;
  const resolved: ResolvedReconnectOptions = { ...DEFAULT_RECONNECT_OPTIONS };
  for (const field of Object.keys(checks) as NumericReconnectOption[]) {
    const value: unknown = given[field];
    if (value === undefined) continue;
    const check = checks[field];
    if (!isValid(value, check)) {
      const kind = check.integer ? "an integer" : "a number";
      const limit = check.unlimited ? " (or Infinity)" : ` ≤ ${check.max}`;
      throw new McpRtError(
        "CONFIG_INVALID",
        `MCPManager option reconnect.${field}: expected ${kind} ≥ ${check.min}${limit}, got ${String(value)}`,
      );
    }
    resolved[field] = value;
  }
  if (given.random !== undefined) {
    if (typeof given.random !== "function") {
      throw new McpRtError(
        "CONFIG_INVALID",
        `MCPManager option reconnect.random: expected a function returning a number in [0, 1), got ${String(given.random)}`,
      );
    }
    resolved.random = given.random;
  }
  if (resolved.initialDelayMs > resolved.maxDelayMs) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCPManager option reconnect.initialDelayMs (${resolved.initialDelayMs}) is larger than reconnect.maxDelayMs (${resolved.maxDelayMs})`,
    );
  }
  return resolved;
}

/** What to do after a drop or a failed attempt. */
export type ReconnectStep =
  /** Try again after `delayMs`; `attempt` counts every attempt since the server was last up for good (1, 2, …). */
  | { retry: true; attempt: number; delayMs: number }
  /** The circuit breaker opened after `attempts` attempts in `failedBursts` failed bursts. */
  | { retry: false; attempts: number; failedBursts: number };

/**
 * The backoff and circuit breaker of one server, without timers or clocks of
 * its own: pure, so that it can be tested step by step. See
 * {@link ReconnectOptions} for the rules.
 */
export class ReconnectPolicy {
  readonly #options: ResolvedReconnectOptions;
  readonly #random: () => number;
  /** Attempts in the current burst. */
  #inBurst = 0;
  /** Attempts since the server was last up for good. */
  #attempts = 0;
  /** When recent bursts failed, oldest first. */
  #failedBursts: number[] = [];
  /** When the last attempt connected, until the next drop. */
  #connectedAt: number | undefined;

  /** @param random Returns a number in [0, 1); tests pass their own. */
  constructor(options: ResolvedReconnectOptions, random: () => number = options.random) {
    this.#options = options;
    this.#random = random;
  }

  /** Attempts since the server was last up for good. */
  get attempts(): number {
    return this.#attempts;
  }

  /** The server dropped, or an attempt failed, at `now` (ms): what to do next. */
  next(now: number): ReconnectStep {
    const { initialDelayMs, maxDelayMs, maxAttempts, maxFailedBursts, failedBurstWindowMs } = this.#options;
    if (this.#connectedAt !== undefined) {
      if (now - this.#connectedAt >= maxDelayMs) {
        this.#inBurst = 0;
        this.#attempts = 0;
        this.#failedBursts = [];
      }
      this.#connectedAt = undefined;
    }
    let pause = false;
    if (this.#inBurst >= maxAttempts) {
      this.#failedBursts = this.#failedBursts.filter((at) => now - at < failedBurstWindowMs);
      this.#failedBursts.push(now);
      if (this.#failedBursts.length >= maxFailedBursts) {
        return { retry: false, attempts: this.#attempts, failedBursts: this.#failedBursts.length };
      }
      this.#inBurst = 0;
      pause = true;
    }
    this.#inBurst++;
    this.#attempts++;
    const cap = Math.min(maxDelayMs, initialDelayMs * 2 ** (this.#inBurst - 1));
    const delayMs = pause ? maxDelayMs / 2 + (this.#random() * maxDelayMs) / 2 : this.#random() * cap;
    return { retry: true, attempt: this.#attempts, delayMs: Math.round(delayMs) };
  }

  /**
   * True while the server is not back for good at `now` (ms): it dropped and
   * has not stayed up for `maxDelayMs` since. A drop then is part of the same
   * outage (e.g. a server that dies right after each start).
   */
  inOutage(now: number): boolean {
    return (
      this.#attempts > 0 &&
      !(this.#connectedAt !== undefined && now - this.#connectedAt >= this.#options.maxDelayMs)
    );
  }

  /** An attempt connected at `now` (ms). The counts start over if it stays up for `maxDelayMs`. */
  connected(now: number): void {
    this.#connectedAt = now;
  }
}
