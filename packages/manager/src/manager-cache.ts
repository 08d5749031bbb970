import { createAuthStorage, createCacheFromUrl, createFileStore, MCPToolCache } from "@mcp-rt/cache";
import { type AuthStorage, type Logger, McpRtError, redactUrl } from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
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
