import { availableParallelism } from "node:os";
import { McpRtError } from "@mcp-rt/config";

/** The default bound on how long one start holds its slot, in ms. */
export const DEFAULT_MAX_HOLD_MS = 2000;

/** Options of {@link SpawnScheduler}. */
export interface SpawnSchedulerOptions {
  /**
   * How many starts hold a slot at once. `Infinity`: no limit, every start
   * goes at once (each server shares the CPU with all the others).
   * @default os.availableParallelism()
   */
  maxConcurrentStarts?: number;
  /**
   * How long a start holds its slot at most, in ms, before the slot passes to
   * the next one on its own: a server that hangs, downloads its package
   * (`npx -y` on a cold cache) or waits on the network never holds the queue.
   * @default 2000
   */
  maxHoldMs?: number;
}

/** One start asking for a slot. */
export interface SpawnRequest {
  /** The server's name: what {@link SpawnScheduler.promote} and {@link SpawnScheduler.queued} go by. */
  name: string;
  /** The caller waits for this start (no usable cache entry): it goes before every start that is not. @default false */
  urgent?: boolean;
  /** How long the server took to come up last time, in ms (the cache entry's `startMs`); unknown: after the known ones. */
  expectedMs?: number;
  /** Aborting takes the request out of the queue; `acquire` then rejects with `signal.reason`. */
  signal?: AbortSignal;
}

/** A slot held by one start. */
export interface SpawnSlot {
  /** Gives the slot back (the server answered its handshake, exited, or the attempt ended). Idempotent. */
  release(): void;
  /** How long the request waited in the queue for this slot, in ms. */
  readonly queuedMs: number;
  /** Same as {@link SpawnSlot.release}, for `using`. */
  [Symbol.dispose](): void;
}

interface Waiter {
  request: SpawnRequest;
  /** Order of arrival: ties go first come, first served. */
  seq: number;
  /** Set by {@link SpawnScheduler.promote}: the order of promotion, before everything else. */
  promoted?: number;
  queuedAt: number;
  grant(slot: SpawnSlot): void;
}

/**
 * Paces how many stdio servers are in their CPU-heavy start at once. On a
 * machine with few cores, servers spawned all together share the CPU for
 * their whole start: none is ready early and every one is late. Spread over
 * as many slots as cores, the same work done in a better order gives the
 * first servers in one server's time and the last no later
 * (docs/architecture.md, "The startup gate").
 *
 * A slot is held from the spawn until the server answers its handshake (or
 * exits, or the attempt ends): the caller calls `release()`. After
 * `maxHoldMs` the slot releases itself. Remote servers do not ask for one:
 * their start costs this machine nothing.
 *
 * The queue's order: promoted requests (a call waits for that server), then
 * urgent ones (the start waits for them), then the rest; within each, by
 * `expectedMs` ascending, those without one after those with one (a
 * measured fast server gives its tools first; an unknown one is as likely
 * slow, and the hold bounds what a slow known one costs the queue); ties
 * first come, first served.
 *
 * @example
 * ```ts
 * const scheduler = new SpawnScheduler({ maxConcurrentStarts: 2 });
 * const slot = await scheduler.acquire({ name: "github", urgent: true, expectedMs: 800, signal });
 * try { await handshake(); } finally { slot.release(); }
 * ```
 */
export class SpawnScheduler {
  readonly #max: number;
  readonly #maxHoldMs: number;
  /** Sorted: the next to get a slot first. */
  readonly #waiting: Waiter[] = [];
  #active = 0;
  #seq = 0;
  #promotions = 0;

  /** @throws McpRtError `CONFIG_INVALID` naming the option, for a value out of range. */
  constructor(options: SpawnSchedulerOptions = {}) {
    this.#max = resolveMaxConcurrentStarts(options.maxConcurrentStarts);
    this.#maxHoldMs = options.maxHoldMs ?? DEFAULT_MAX_HOLD_MS;
    if (typeof this.#maxHoldMs !== "number" || !(this.#maxHoldMs > 0) || !Number.isFinite(this.#maxHoldMs)) {
      throw new McpRtError(
        "CONFIG_INVALID",
        `option maxHoldMs: expected a positive number of ms, got ${String(options.maxHoldMs)}`,
      );
    }
  }

  /** How many starts hold a slot at once, at most. */
  get maxConcurrentStarts(): number {
    return this.#max;
  }

  /** How many starts hold a slot now. */
  get active(): number {
    return this.#active;
  }

  /** The names waiting for a slot, the next one first. */
  get queued(): string[] {
    return this.#waiting.map((waiter) => waiter.request.name);
  }

  /**
   * Resolves with a slot once this start's turn comes (at once while a slot
   * is free and nobody waits). Rejects with `signal.reason` when the signal
   * aborts first; the request then leaves the queue. An abort after the slot
   * was handed over does not release it: the caller does.
   * @throws McpRtError `CONFIG_INVALID` (rejects) for an `expectedMs` that is not a number ≥ 0.
   */
  acquire(request: SpawnRequest): Promise<SpawnSlot> {
    const { expectedMs, signal } = request;
    if (expectedMs !== undefined && !(typeof expectedMs === "number" && expectedMs >= 0)) {
      return Promise.reject(
        new McpRtError(
          "CONFIG_INVALID",
          `SpawnScheduler.acquire("${request.name}"): expectedMs must be a number of ms ≥ 0 or left out, got ${String(expectedMs)}`,
          { server: request.name },
        ),
      );
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    const queuedAt = performance.now();
    if (this.#active < this.#max && this.#waiting.length === 0) {
      return Promise.resolve(this.#slot(queuedAt));
    }
    return new Promise<SpawnSlot>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.#waiting.indexOf(waiter);
        if (at === -1) return;
        this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        request,
        seq: this.#seq++,
        queuedAt,
        grant: (slot) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(slot);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#enqueue(waiter);
    });
  }

  /**
   * Moves the queued requests of `name` to the front (a call to one of its
   * deferred tools waits for it), after any promoted before. Returns whether
   * one was queued.
   */
  promote(name: string): boolean {
    const named = this.#waiting.filter((waiter) => waiter.request.name === name);
    for (const waiter of named) {
      if (waiter.promoted !== undefined) continue;
      this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
      waiter.promoted = this.#promotions++;
      this.#enqueue(waiter);
    }
    return named.length > 0;
  }

  #enqueue(waiter: Waiter): void {
    const at = this.#waiting.findIndex((other) => comesBefore(waiter, other));
    if (at === -1) this.#waiting.push(waiter);
    else this.#waiting.splice(at, 0, waiter);
  }

  #slot(queuedAt: number): SpawnSlot {
    this.#active++;
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      this.#active--;
      this.#next();
    };
    // With no limit nothing waits for the slot: no timer to keep.
    const timer = Number.isFinite(this.#max) ? setTimeout(release, this.#maxHoldMs) : undefined;
    timer?.unref();
    return { release, queuedMs: performance.now() - queuedAt, [Symbol.dispose]: release };
  }

  #next(): void {
    while (this.#active < this.#max) {
      const waiter = this.#waiting.shift();
      if (!waiter) return;
      waiter.grant(this.#slot(waiter.queuedAt));
    }
  }
}

/** Whether `a` gets a slot before `b`. */
function comesBefore(a: Waiter, b: Waiter): boolean {
  if (a.promoted !== undefined || b.promoted !== undefined) {
    if (a.promoted === undefined) return false;
    if (b.promoted === undefined) return true;
    return a.promoted < b.promoted;
  }
  const urgentA = a.request.urgent === true;
  if (urgentA !== (b.request.urgent === true)) return urgentA;
  const [ea, eb] = [a.request.expectedMs, b.request.expectedMs];
  if (ea !== eb) {
    if (ea === undefined) return false;
    if (eb === undefined) return true;
    return ea < eb;
  }
  return a.seq < b.seq;
}

/**
 * The `maxConcurrentStarts` option, checked: a whole number ≥ 1, or
 * `Infinity` for no limit; the default is the machine's
 * `os.availableParallelism()`.
 * @throws McpRtError `CONFIG_INVALID` naming the option, for another value.
 */
export function resolveMaxConcurrentStarts(value: number | undefined): number {
  if (value === undefined) return availableParallelism();
  if (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 1)) return value;
  throw new McpRtError(
    "CONFIG_INVALID",
    `option maxConcurrentStarts: expected a whole number ≥ 1 (how many stdio servers start at once), or Infinity for no limit; got ${String(value)}`,
  );
}
