import {
  createAuthStorage,
  createCacheFromUrl,
  createFileStore,
  MCPToolCache,
  type MCPToolCacheEntry,
  type MCPToolCacheListHint,
  type MCPToolCacheSetOptions,
} from "@mcp-rt/cache";
import type { MCPServerConnection } from "@mcp-rt/client";
import { type AuthStorage, type Logger, type MCPToolDefinition, McpRtError, redactUrl } from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
import { client } from "./client-module.js";
import type { MCPLoadProblem } from "./load-problem.js";

/** What a manager's `cache` option may be: a cache, a store URL, `null` (off), or unset (the default file store). */
export type ManagerCacheOption = MCPToolCache | string | null | undefined;

/**
 * A manager's tool cache: the one it was given, one it opens from a store URL
 * (`memory:`, `file:/path`, `redis://…`), `null` for none, or (when it was
 * given nothing) the default file store, made on first use. It closes only
 * what it made. A URL that cannot be opened leaves the manager without a
 * cache and becomes one problem, reported by the next `connectServers`.
 */
export class ManagerCache {
  readonly #given: ManagerCacheOption;
  readonly #logger: Logger | undefined;
  #cache: Promise<MCPToolCache | null> | undefined;
  #owned = false;
  #problem: MCPLoadProblem | undefined;

  constructor(given: ManagerCacheOption, logger: Logger | undefined) {
    this.#given = given;
    this.#logger = logger;
    // A URL is opened at once, so the first attempts do not wait for it.
    if (typeof given === "string") this.#cache = this.#open(given);
  }

  /** The cache to read and write; `null` when caching is off or the store could not be opened. */
  get(): Promise<MCPToolCache | null> {
    this.#cache ??= this.#make();
    return this.#cache;
  }

  /** The store that could not be opened, once: later calls return nothing. */
  takeProblem(): MCPLoadProblem | undefined {
    const problem = this.#problem;
    this.#problem = undefined;
    return problem;
  }

  /** Closes the cache if this manager made it. A default one is made again on next use; a closed one reads as misses. */
  async close(): Promise<void> {
    const opening = this.#cache;
    if (!this.#owned || !opening) return;
    this.#owned = false;
    this.#cache = undefined;
    await (await opening)?.close();
  }

  #make(): Promise<MCPToolCache | null> {
    const given = this.#given;
    if (given === null) return Promise.resolve(null);
    if (typeof given === "object") return Promise.resolve(given);
    if (typeof given === "string") return this.#open(given);
    this.#owned = true;
    return Promise.resolve(new MCPToolCache(createFileStore(), this.#logger ? { logger: this.#logger } : {}));
  }

  async #open(url: string): Promise<MCPToolCache | null> {
    try {
      const cache = await createCacheFromUrl(url, this.#logger ? { logger: this.#logger } : {});
      this.#owned = true;
      return cache;
    } catch (error) {
      const path = redactUrl(url);
      this.#problem = {
        kind: "cache",
        path,
        error: new McpRtError(
          "CACHE_ERROR",
          `tool cache unavailable, starting without it: ${errorMessage(error)}`,
          {
            cause: error,
          },
        ),
      };
      return null;
    }
  }
}

/**
 * A manager's `authStorage` option: the store it was given, or one opened from
 * a URL (`file:` / `file:/path`, `memory:`, `redis://…`, `keychain:`), which
 * the manager then closes. A URL that cannot be used throws `CONFIG_INVALID`
 * naming the option: credentials are not best effort.
 */
export function openAuthStorage(given: AuthStorage | string | undefined): AuthStorage | undefined {
  if (typeof given !== "string") return given;
  try {
    return createAuthStorage(given);
  } catch (error) {
    throw new McpRtError("CONFIG_INVALID", `MCPManager option authStorage: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

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
