import { createFileStore, MCPToolCache } from "@mcp-rt/cache";
import type { Logger } from "@mcp-rt/config";

/** Caches handed over to the manager they are given to, which closes them when disposed. */
const handedOver = new WeakSet<MCPToolCache>();

/**
 * Gives `cache` to the `MCPManager` it is passed to: that manager closes it when
 * disposed. For the loader, which makes a cache from a URL that no caller holds.
 */
export function handOverCache(cache: MCPToolCache): MCPToolCache {
  handedOver.add(cache);
  return cache;
}

/**
 * A manager's tool cache: the one it was given, `null` for none, or (when it
 * was given nothing) the default file store, made on first use. It closes only
 * what it made or was handed over.
 */
export class ManagerCache {
  readonly #given: MCPToolCache | null | undefined;
  readonly #logger: Logger | undefined;
  #cache: MCPToolCache | null | undefined;
  #owned: boolean;

  constructor(given: MCPToolCache | null | undefined, logger: Logger | undefined) {
    this.#given = given;
    this.#logger = logger;
    this.#cache = given;
    this.#owned = given ? handedOver.has(given) : false;
  }

  /** The cache to read and write, `null` when caching is off. */
  get(): MCPToolCache | null {
    if (this.#cache === undefined) {
      this.#owned = true;
      this.#cache = new MCPToolCache(createFileStore(), this.#logger ? { logger: this.#logger } : {});
    }
    return this.#cache;
  }

  /** Closes the cache if it is ours. A default one is made again on next use; a closed one reads as misses. */
  async close(): Promise<void> {
    const cache = this.#cache;
    if (!this.#owned || !cache) return;
    this.#cache = this.#given;
    this.#owned = false;
    await cache.close();
  }
}
