/**
 * The caching hints of a 2026-07-28 list result (SEP-2549, "Caching"):
 * `ttlMs`, how long the result may be taken as fresh, and `cacheScope`,
 * whether it may be served to another authorization context. A paginated
 * list is one list to mcp-rt: it is as fresh as its shortest-lived page and
 * private when any page is.
 */

/** The SDK's cap on any `ttlMs` (its `MAX_CACHE_TTL_MS`): a server cannot pin a list for longer. */
export const MAX_CACHE_TTL_MS: number = 24 * 60 * 60 * 1000;

/** How long a listed result may stand in for a new listing, and for whom. */
export interface MCPListCacheHint {
  /** How long after `receivedAt` the list is fresh, in ms; `0` (the default) for never. */
  ttlMs: number;
  /** `"private"` (the default): never served to another authorization context; `"public"`: to anyone. */
  cacheScope: "public" | "private";
  /** When the first page arrived, in ms since the epoch. */
  receivedAt: number;
}

/**
 * The hint of one page as sent: an absent, negative or non-number `ttlMs` is
 * `0` (the spec's reading), a `cacheScope` other than `"public"` is private.
 */
export function pageHint(
  page: { ttlMs?: unknown; cacheScope?: unknown },
  receivedAt: number,
): MCPListCacheHint {
  const ttl = page.ttlMs;
  const ttlMs =
    typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0 ? Math.min(ttl, MAX_CACHE_TTL_MS) : 0;
  return { ttlMs, cacheScope: page.cacheScope === "public" ? "public" : "private", receivedAt };
}

/** The hint of a list of pages so far and one more page: fresh until the first of them goes stale. */
export function joinHints(list: MCPListCacheHint | undefined, page: MCPListCacheHint): MCPListCacheHint {
  if (!list) return page;
  const freshUntil = Math.min(list.receivedAt + list.ttlMs, page.receivedAt + page.ttlMs);
  return {
    ttlMs: Math.max(0, freshUntil - list.receivedAt),
    cacheScope: list.cacheScope === "private" || page.cacheScope === "private" ? "private" : "public",
    receivedAt: list.receivedAt,
  };
}

/** True while `now < receivedAt + ttlMs` (a `ttlMs` of 0 is never fresh). */
export function isFreshHint(hint: MCPListCacheHint | undefined, now: number = Date.now()): boolean {
  return hint !== undefined && hint.ttlMs > 0 && now < hint.receivedAt + hint.ttlMs;
}
