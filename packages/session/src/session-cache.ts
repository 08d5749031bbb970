import {
  createCacheFromUrl,
  createFileStore,
  defaultCacheDir,
  type Logger,
  type MCPLoadError,
  MCPToolCache,
} from "@mcp-rt/manager";

/** Where a session's tool cache comes from (`createAgentSession`'s options). */
export interface SessionCacheOptions {
  /** An `MCPToolCache` (the caller's, stays open), a store URL, or nothing (the file store). */
  cacheStorage?: MCPToolCache | string | undefined;
  /** The home the session was given, when it was. */
  homeDir?: string | undefined;
  /** The environment the session was given, when it was. */
  env?: Record<string, string | undefined> | undefined;
  logger: Logger;
}

/** The cache a session hands its manager. */
export interface SessionCache {
  /** For the manager: a cache, `null` (none), or `undefined` (the manager's default file store, which it closes). */
  cache: MCPToolCache | null | undefined;
  /** A cache made here, from a URL or in the given home: the session closes it on `dispose()`. */
  owned: MCPToolCache | undefined;
  /** A URL that could not be opened: startup goes on without a cache. */
  errors: MCPLoadError[];
}

/** Opens the tool cache of a new session. Never throws: an unusable URL comes back in `errors`. */
export async function openSessionCache(options: SessionCacheOptions): Promise<SessionCache> {
  const { cacheStorage, logger } = options;
  if (typeof cacheStorage === "string") {
    try {
      const owned = await createCacheFromUrl(cacheStorage, { logger });
      return { cache: owned, owned, errors: [] };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        cache: null,
        owned: undefined,
        errors: [{ path: cacheStorage, error: `tool cache unavailable, starting without it: ${reason}` }],
      };
    }
  }
  if (cacheStorage) return { cache: cacheStorage, owned: undefined, errors: [] };
  // Without a home or environment of its own, the manager's default (the file store in the real home) applies.
  if (options.homeDir === undefined && options.env === undefined) {
    return { cache: undefined, owned: undefined, errors: [] };
  }
  const folder = defaultCacheDir(options.env ?? process.env, options.homeDir);
  const owned = new MCPToolCache(createFileStore(folder), { logger });
  return { cache: owned, owned, errors: [] };
}
