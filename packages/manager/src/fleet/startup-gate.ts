import { type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import { monotonicMs } from "@mcp-rt/config/util";
import { delay } from "../abortable.js";
import type { MCPNotWaitedFor, MCPStartupMode } from "../manager-types.js";
import type { Attempt } from "../server/attempt.js";
import { holdLaunchesBeforeGate } from "./start-pace.js";

/** Options of {@link passStartupGate}. */
export interface StartupGateOptions {
  /** How long to wait for every attempt before using the cache. */
  startupTimeoutMs: number;
  /** How long to wait, after that, for pending attempts without a cache entry. `undefined`: until they settle. */
  maxStartupWaitMs: number | undefined;
  /** `"cache-first"` passes as soon as every attempt settled or has a cache entry (never later than the gate). */
  mode: MCPStartupMode;
  /**
   * When the gate's time started (`monotonicMs()`): the call that started
   * the attempts, so that the time spent starting them counts. @default now
   */
  startedAt?: number;
  /**
   * Offers the cached tools of every attempt still pending at the gate, all at
   * once (one rebuild of the tools, not one per server); returns the attempts
   * whose cached tools it used. The others are waited for.
   */
  defer(offers: readonly DeferOffer[]): ReadonlySet<Attempt>;
  /**
   * Told of the attempts without cached tools that the gate did not wait for
   * (`failed-before`, `missed-before`), or stopped waiting for (`ran-out`), still pending.
   */
  notWaitedFor(attempts: readonly Attempt[], reason: MCPNotWaitedFor["reason"]): void;
}

/** A pending attempt's cached tools, offered at the startup gate to stand in as deferred tools. */
export interface DeferOffer {
  attempt: Attempt;
  cached: MCPToolDefinition[];
}

/** The startup gate of the design document (ms). */
export const STARTUP_TIMEOUT_MS = 250;

const settled = (attempt: Attempt): Promise<unknown> => attempt.done.catch(() => undefined);

/** Settles once the attempt settled or its late cache read found an entry, whichever is first. */
function settledOrLate(attempt: Attempt): Promise<unknown> {
  return Promise.race([settled(attempt), attempt.late.then((cached) => cached ?? settled(attempt))]);
}

/**
 * Whether a pending attempt without cached tools is not waited for: its
 * server's last start failed by itself (the cache's note), or the wait ran
 * out on it at its last start and this wait is no longer than that one (a
 * longer bound than the one it missed, or none, waits for it again).
 */
function passedOver(attempt: Attempt, maxStartupWaitMs: number | undefined): boolean {
  if (attempt.failedStartup !== undefined) return true;
  const missed = attempt.missedStartup;
  return missed !== undefined && maxStartupWaitMs !== undefined && maxStartupWaitMs <= missed.waitMs;
}

/** Resolves once `ready` settled for every attempt, or after `ms` (never, for `undefined`), whichever comes first. */
async function readyWithin(
  attempts: readonly Attempt[],
  ms: number | undefined,
  ready: (attempt: Attempt) => Promise<unknown> = settled,
): Promise<void> {
  const stop = new AbortController();
  await Promise.race([Promise.all(attempts.map(ready)), delay(ms, stop.signal)]);
  stop.abort();
}

/**
 * The startup gate (docs/architecture.md): waits until every attempt settled
 * (in `"cache-first"` mode: settled or found in the cache) or
 * `startupTimeoutMs` passed since `startedAt`, whichever is first. Then the
 * attempts still pending are deferred with their cached tools, together (read
 * while they connected, so the gate never waits on the cache); those without
 * a cache entry are waited for, at most `maxStartupWaitMs`, unless the wait
 * ran out on them at their last start. A cache read that timed out stays
 * wanted: its entry, landing first, ends the wait for its server.
 */
export async function passStartupGate(
  attempts: readonly Attempt[],
  options: StartupGateOptions,
): Promise<void> {
  // The launch hold before the gate helps only a gate that will defer something (see holdLaunchesBeforeGate).
  const maxWait = options.maxStartupWaitMs;
  let unread = attempts.length;
  let hits = 0;
  for (const attempt of attempts) {
    void attempt.cached.then((cached) => {
      unread -= 1;
      if (cached !== null || passedOver(attempt, maxWait)) hits += 1;
    });
  }
  // In cache-first mode an attempt is ready once it settled, its cache read found an entry
  // (in time or late), or it is not to be waited for.
  const settledOrCached = (attempt: Attempt): Promise<unknown> =>
    Promise.race([
      settled(attempt),
      attempt.cached.then((cached) => cached ?? (passedOver(attempt, maxWait) || settledOrLate(attempt))),
    ]);
  const elapsed = options.startedAt === undefined ? 0 : monotonicMs() - options.startedAt;
  const gateMs = Math.max(0, options.startupTimeoutMs - elapsed);
  const endHold =
    attempts.length > 0 ? holdLaunchesBeforeGate(gateMs, () => hits > 0 || unread > 0) : () => {};
  const waitFor: Attempt[] = [];
  try {
    await readyWithin(attempts, gateMs, options.mode === "cache-first" ? settledOrCached : settled);
    // Still held while a late cache read is awaited: a launch now would delay the return.
    const offers: DeferOffer[] = [];
    const notToWaitFor: Attempt[] = [];
    for (const attempt of attempts) {
      if (attempt.outcome) continue;
      // A late read that already landed counts as found.
      const cached = (await attempt.cached) ?? attempt.cachedEntry?.tools ?? null;
      // Cached tools are judged against the approvals before any is handed over: read together, they are in by now.
      if (cached !== null) await attempt.approvals;
      if (cached !== null) offers.push({ attempt, cached });
      else if (passedOver(attempt, maxWait)) notToWaitFor.push(attempt);
      else waitFor.push(attempt);
    }
    // An attempt that settled while later reads were awaited keeps its outcome (live tools or its error).
    const pending = offers.filter(({ attempt }) => !attempt.outcome);
    const used = pending.length > 0 ? options.defer(pending) : new Set<Attempt>();
    for (const { attempt } of pending) if (!used.has(attempt)) waitFor.push(attempt);
    const notWaited = notToWaitFor.filter((attempt) => !attempt.outcome);
    const failedBefore = notWaited.filter((attempt) => attempt.failedStartup !== undefined);
    const missed = notWaited.filter((attempt) => attempt.failedStartup === undefined);
    if (failedBefore.length > 0) options.notWaitedFor(failedBefore, "failed-before");
    if (missed.length > 0) options.notWaitedFor(missed, "missed-before");
  } finally {
    endHold();
  }
  if (waitFor.length === 0) return;
  // A read that timed out is still wanted: an entry that lands before the server is up stands
  // in for it (deferred tools), during the wait and after it, instead of the server being waited for.
  const lateDeferred = new Set<Attempt>();
  for (const attempt of waitFor) {
    void attempt.late.then(async (cached) => {
      if (cached === null || attempt.outcome) return;
      await attempt.approvals;
      if (attempt.outcome) return;
      for (const used of options.defer([{ attempt, cached }])) lateDeferred.add(used);
    });
  }
  await readyWithin(waitFor, maxWait, settledOrLate);
  const ranOut = waitFor.filter((attempt) => !attempt.outcome && !lateDeferred.has(attempt));
  if (ranOut.length > 0) options.notWaitedFor(ranOut, "ran-out");
}

/** The `startupMode` option, checked. @throws McpRtError `CONFIG_INVALID` naming the option for another value. */
export function resolveStartupMode(mode: MCPStartupMode | undefined): MCPStartupMode {
  if (mode === undefined) return "gate";
  if (mode === "gate" || mode === "cache-first") return mode;
  throw new McpRtError(
    "CONFIG_INVALID",
    `MCPManager option startupMode: expected "gate" or "cache-first", got ${JSON.stringify(mode)}`,
  );
}
