import { holdLaunches } from "@mcp-rt/client/light";
import { type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import { monotonicMs } from "@mcp-rt/config/util";
import { delay } from "./abortable.js";
import type { Attempt } from "./attempt.js";
import type { MCPStartupMode } from "./manager-types.js";

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
}

/** A pending attempt's cached tools, offered at the startup gate to stand in as deferred tools. */
export interface DeferOffer {
  attempt: Attempt;
  cached: MCPToolDefinition[];
}

/** How long before the startup gate no new stdio server is launched. */
export const LAUNCH_HOLD_MS = 80;

const settled = (attempt: Attempt): Promise<unknown> => attempt.done.catch(() => undefined);

/** Settles once the attempt settled or its cache read found an entry, whichever is first. */
function settledOrCached(attempt: Attempt): Promise<unknown> {
  return Promise.race([settled(attempt), attempt.cached.then((cached) => cached ?? settled(attempt))]);
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
 * while they connected, so the gate never waits on the cache), and those
 * without a cache entry are waited for, at most `maxStartupWaitMs`.
 */
export async function passStartupGate(
  attempts: readonly Attempt[],
  options: StartupGateOptions,
): Promise<void> {
  // No stdio launch starts in the last moments before the gate: a fork + exec
  // (25–60 ms on a busy machine) would hold the gate's timer until it ends.
  // A hold only helps a gate that will defer something: when every cache read
  // came back empty, each pending server is waited for anyway, and holding its
  // launch would only make the wait longer (a cold start).
  let release: (() => void) | undefined;
  let unread = attempts.length;
  let hits = 0;
  for (const attempt of attempts) {
    void attempt.cached.then((cached) => {
      unread -= 1;
      if (cached !== null) hits += 1;
    });
  }
  const elapsed = options.startedAt === undefined ? 0 : monotonicMs() - options.startedAt;
  const gateMs = Math.max(0, options.startupTimeoutMs - elapsed);
  const holdAt = gateMs - LAUNCH_HOLD_MS;
  const holdTimer =
    attempts.length > 0 && holdAt > 0
      ? setTimeout(() => {
          if (hits > 0 || unread > 0) release = holdLaunches();
        }, holdAt)
      : undefined;
  const waitFor: Attempt[] = [];
  try {
    await readyWithin(attempts, gateMs, options.mode === "cache-first" ? settledOrCached : settled);
    // Still held while a late cache read is awaited: a launch now would delay the return.
    const offers: DeferOffer[] = [];
    for (const attempt of attempts) {
      if (attempt.outcome) continue;
      const cached = await attempt.cached;
      if (cached === null) waitFor.push(attempt);
      else offers.push({ attempt, cached });
    }
    // An attempt that settled while later reads were awaited keeps its outcome (live tools or its error).
    const pending = offers.filter(({ attempt }) => !attempt.outcome);
    const used = pending.length > 0 ? options.defer(pending) : new Set<Attempt>();
    for (const { attempt } of pending) if (!used.has(attempt)) waitFor.push(attempt);
  } finally {
    clearTimeout(holdTimer);
    release?.();
  }
  if (waitFor.length > 0) await readyWithin(waitFor, options.maxStartupWaitMs);
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
