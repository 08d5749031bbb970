import KeyvRedis, { type RedisClientOptions } from "@keyv/redis";
import { McpRtError } from "@mcp-rt/config";
import { redactUrl } from "./redact-url.js";
import type { RedisStoreOptions } from "./redis-store-options.js";

export type { RedisStoreOptions } from "./redis-store-options.js";

type Client = Awaited<ReturnType<KeyvRedis<string>["getClient"]>>;

class RedisStore extends KeyvRedis<string> {
  readonly #connectTimeoutMs: number;
  readonly #closeTimeoutMs: number;
  #connecting: Promise<Client> | undefined;

  constructor(client: RedisClientOptions, options: { connectTimeoutMs: number; closeTimeoutMs: number }) {
    super(client, { throwOnConnectError: true, throwOnErrors: true });
    this.#connectTimeoutMs = options.connectTimeoutMs;
    this.#closeTimeoutMs = options.closeTimeoutMs;
  }

  // Every caller waits for the one first connection (commands sent while it is
  // under way would fail: the offline queue is off), but no longer than
  // connectTimeoutMs; the client keeps trying in the background meanwhile.
  override async getClient(): Promise<Client> {
    if ((this.client as { isReady?: boolean }).isReady) return this.client;
    this.#connecting ??= super.getClient().catch((error: unknown) => {
      this.#connecting = undefined;
      throw error;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(
        () => fail(new Error(`Redis did not accept a connection within ${this.#connectTimeoutMs} ms`)),
        this.#connectTimeoutMs,
      );
    });
    return Promise.race([this.#connecting, late]).finally(() => clearTimeout(timer));
  }

  // A graceful close waits for replies that a hung server never sends; bound it.
  override async disconnect(force?: boolean): Promise<void> {
    if (force) return super.disconnect(true);
    let timer: NodeJS.Timeout | undefined;
    const closed = super.disconnect().then(() => true);
    const late = new Promise<false>((done) => {
      timer = setTimeout(() => done(false), this.#closeTimeoutMs);
    });
    const inTime = await Promise.race([closed, late]).finally(() => clearTimeout(timer));
    if (!inTime) (this.client as { destroy?: () => void }).destroy?.();
  }
}

/**
 * A Redis or Valkey store for `MCPToolCache`, through the official `@keyv/redis`
 * adapter (an optional peer dependency: `npm install @keyv/redis`). Several
 * agents on several machines can share one.
 *
 * Built to fail fast: nothing connects until the first use, commands issued
 * while Redis is down fail at once instead of queueing (so a read misses
 * immediately), a connect attempt gives up after `connectTimeoutMs`, and the
 * client keeps reconnecting in the background, so the cache works again as
 * soon as Redis is back. Call `disconnect()` (or `MCPToolCache.close()`) when
 * done: an open client keeps the process alive.
 *
 * @param url - `redis://[user:password@]host:port[/db]` or `rediss://` for TLS.
 * @throws McpRtError `CONFIG_INVALID` when `url` is not a `redis:` or `rediss:` URL.
 *
 * @example
 * ```ts
 * import { MCPToolCache } from "@mcp-rt/cache";
 * import { createRedisStore } from "@mcp-rt/cache/redis";
 * const cache = new MCPToolCache(createRedisStore("redis://cache.internal:6379"));
 * ```
 */
export function createRedisStore(url: string, options: RedisStoreOptions = {}): KeyvRedis<string> {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = "";
  }
  if (protocol !== "redis:" && protocol !== "rediss:") {
    throw new McpRtError(
      "CONFIG_INVALID",
      `Redis store: "${redactUrl(url)}" is not a Redis URL; use redis://host:port (or rediss:// for TLS).`,
    );
  }
  const maxDelay = options.maxReconnectDelayMs ?? 2000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
  const client: RedisClientOptions = {
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, maxDelay),
    },
  };
  return new RedisStore(client, { connectTimeoutMs, closeTimeoutMs: options.closeTimeoutMs ?? 1000 });
}
