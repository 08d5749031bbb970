import { fileURLToPath } from "node:url";
import { McpRtError, redactUrl } from "@mcp-rt/config";
import { createFileStore } from "./file-store.js";
import { MCPToolCache } from "./mcp-tool-cache.js";
import type { MCPToolCacheOptions } from "./mcp-tool-cache-options.js";
import type { RedisStoreOptions } from "./redis-store-options.js";

/** Options of {@link createCacheFromUrl}: the cache's own, plus the Redis store's for `redis://` URLs. */
export interface CacheFromUrlOptions extends MCPToolCacheOptions {
  /** Used for `redis://` and `rediss://` URLs. */
  redis?: RedisStoreOptions;
}

const USAGE = 'use "memory:", "file:" (the default folder), "file:/path/to/folder" or "redis://host:port"';

/** The folder a `file:` URL names (`undefined`: the default one); `usage` ends the error of a broken file URL. */
export function filePath(url: string, usage: string = USAGE): string | undefined {
  const rest = url.slice("file:".length);
  if (rest === "") return undefined;
  if (!rest.startsWith("//")) {
    try {
      return decodeURIComponent(rest);
    } catch {
      return rest; // a literal "%" in a plain path
    }
  }
  try {
    return fileURLToPath(url);
  } catch (error) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `"${url}" is not a usable file URL (${String(error)}); ${usage}.`,
      {
        cause: error,
      },
    );
  }
}

async function loadRedisStore(): Promise<typeof import("./redis-store.js")> {
  try {
    return await import("./redis-store.js");
  } catch (error) {
    throw new McpRtError(
      "CACHE_ERROR",
      "A redis:// cache needs the optional peer dependency @keyv/redis; install it (npm install @keyv/redis) or use a file: cache.",
      { cause: error },
    );
  }
}

/**
 * Builds an {@link MCPToolCache} from a URL, as an agent's `--cache` flag takes it:
 * `memory:` (this process only), `file:` / `file:/path` / `file:///path` (the
 * file store; `~/` is expanded) or `redis://host:port` / `rediss://` (Redis or
 * Valkey, needs `@keyv/redis`). Never connects: an unreachable Redis makes
 * reads miss, it does not make this fail or wait.
 *
 * @throws McpRtError `CONFIG_INVALID` for any other URL; `CACHE_ERROR` when
 *   `@keyv/redis` is not installed for a Redis URL.
 */
export async function createCacheFromUrl(
  url: string,
  options: CacheFromUrlOptions = {},
): Promise<MCPToolCache> {
  const { redis, ...cacheOptions } = options;
  if (typeof url !== "string") {
    throw new McpRtError("CONFIG_INVALID", `Cache URL must be a string, got ${typeof url}; ${USAGE}.`);
  }
  const trimmed = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  switch (scheme) {
    case "memory":
      if (trimmed.slice("memory:".length).replace(/^\/\//, "") !== "") break;
      return new MCPToolCache(new Map<string, unknown>(), cacheOptions);
    case "file":
      return new MCPToolCache(createFileStore(filePath(trimmed)), cacheOptions);
    case "redis":
    case "rediss": {
      const { createRedisStore } = await loadRedisStore();
      return new MCPToolCache(createRedisStore(trimmed, redis), cacheOptions);
    }
  }
  throw new McpRtError("CONFIG_INVALID", `Unsupported cache URL "${redactUrl(trimmed)}"; ${USAGE}.`);
}
