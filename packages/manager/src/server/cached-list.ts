import type { MCPToolCacheEntry, MCPToolCacheListHint, MCPToolCacheSetOptions } from "@mcp-rt/cache";
import type { MCPServerConnection } from "@mcp-rt/client";
import type { MCPToolDefinition } from "@mcp-rt/config";
import { client } from "../client-module.js";

/** What {@link freshCachedList} looks at. */
export interface FreshCachedListOptions {
  /** The server's new connection (its era and auth context decide). */
  connection: Pick<MCPServerConnection, "era" | "authContext">;
  /** The entry the attempt read (`Attempt.cachedEntry`): public lists, or private ones kept under `readAs`. */
  entry: MCPToolCacheEntry | null;
  /** The auth context the attempt read the cache as. */
  readAs: string;
  /** @default Date.now() */
  now?: number;
}

/** The hint of each connection whose list came from the cache: it is written back with the entry. */
const served = new WeakMap<object, MCPToolCacheListHint>();

/**
 * The cached tools a new 2026-07-28 connection may use as its live list
 * instead of listing again (SEP-2549: within `ttlMs` the result is fresh), or
 * `undefined` to list. The attempt's entry serves when its list is public,
 * or private and read as the auth context the connection turned out to use
 * (a sign-in during the connect may have changed it). `ttlMs: 0`, what SDK
 * servers send unless told otherwise, is never fresh: the list is
 * revalidated as before. Called with a connection, so the client is loaded.
 */
export function freshCachedList(options: FreshCachedListOptions): MCPToolDefinition[] | undefined {
  const { connection, entry } = options;
  const hint = entry?.toolsHint;
  if (connection.era !== "modern" || !entry || !hint) return undefined;
  if (!client().isFreshHint(hint, options.now ?? Date.now())) return undefined;
  if (hint.cacheScope === "private" && connection.authContext !== options.readAs) return undefined;
  served.set(connection, hint);
  return entry.tools;
}

/**
 * What the cache write of a connection's lists adds (`MCPToolCache.set`):
 * the tools' caching hint (of its last `tools/list`, else of the cached list
 * it took as live, which keeps its first freshness), the scope of the lists
 * beside them, and the auth context private lists are kept under.
 */
export function listCacheOptions(
  connection: MCPServerConnection,
): Pick<MCPToolCacheSetOptions, "toolsHint" | "cacheScope" | "authContext"> {
  const toolsHint = connection.toolsCacheHint ?? served.get(connection);
  const { cacheScope } = connection;
  return {
    ...(toolsHint ? { toolsHint } : {}),
    ...(cacheScope ? { cacheScope } : {}),
    authContext: connection.authContext,
  };
}
