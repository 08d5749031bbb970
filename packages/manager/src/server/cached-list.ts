import type { MCPToolCacheEntry, MCPToolCacheListHint, MCPToolCacheSetOptions } from "@mcp-rt/cache";
import type { MCPServerConnection } from "@mcp-rt/client";
import type { MCPServerConfig, MCPToolDefinition } from "@mcp-rt/config";
import { client } from "../client-module.js";
import type { ManagerCache } from "../manager-cache.js";

/** What {@link freshCachedList} looks at. */
export interface FreshCachedListOptions {
  /** The server's new connection (its era and auth context decide). */
  connection: Pick<MCPServerConnection, "era" | "authContext">;
  /** The plain entry the attempt read (`Attempt.cachedEntry`). */
  entry: MCPToolCacheEntry | null;
  /** Where a private list kept under the connection's auth context is read. */
  cache: Pick<ManagerCache, "get">;
  name: string;
  /** The unresolved config, as the cache keys it. */
  config: MCPServerConfig;
  cwd: string;
  /** @default Date.now() */
  now?: number;
}

/** The hint of each connection whose list came from the cache: it is written back with the entry. */
const served = new WeakMap<object, MCPToolCacheListHint>();

/**
 * The cached tools a new 2026-07-28 connection may use as its live list
 * instead of listing again (SEP-2549: within `ttlMs` the result is fresh), or
 * `undefined` to list. The attempt's plain entry serves when its list is
 * public, or private and the connection sends no credentials; otherwise the
 * private list kept under the connection's `authContext` is read, which no
 * other auth context can find. `ttlMs: 0`, what SDK servers send unless told
 * otherwise, is never fresh: the list is revalidated as before. Never
 * rejects (the cache never throws). Called with a connection, so the client
 * is loaded.
 */
export async function freshCachedList(
  options: FreshCachedListOptions,
): Promise<MCPToolDefinition[] | undefined> {
  const { connection, entry } = options;
  if (connection.era !== "modern") return undefined;
  const now = options.now ?? Date.now();
  const { authContext } = connection;
  const hint = entry?.toolsHint;
  if (
    entry &&
    hint &&
    client().isFreshHint(hint, now) &&
    (hint.cacheScope === "public" || authContext === undefined)
  ) {
    served.set(connection, hint);
    return entry.tools;
  }
  if (authContext === undefined) return undefined;
  const open = await options.cache.get();
  const read = await open?.read(
    { serverName: options.name, config: options.config, cwd: options.cwd },
    { authContext },
  );
  const own = read?.entry;
  const ownHint = own?.toolsHint;
  if (!own || ownHint?.cacheScope !== "private" || !client().isFreshHint(ownHint, now)) return undefined;
  served.set(connection, ownHint);
  return own.tools;
}

/**
 * What the cache write of a connection's list adds (`MCPToolCache.set`): the
 * list's caching hint (of its last `tools/list`, else of the cached list it
 * took as live, which keeps its first freshness) and the auth context a
 * private list is kept under.
 */
export function listCacheOptions(
  connection: MCPServerConnection,
): Pick<MCPToolCacheSetOptions, "toolsHint" | "authContext"> {
  const toolsHint = connection.toolsCacheHint ?? served.get(connection);
  const { authContext } = connection;
  return {
    ...(toolsHint ? { toolsHint } : {}),
    ...(authContext === undefined ? {} : { authContext }),
  };
}
