import KeyvRedis, { type RedisClientOptions } from "@keyv/redis";
import { McpRtError, redactUrl } from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
import type { RedisStoreOptions } from "./redis-store-options.js";

type Client = Awaited<ReturnType<KeyvRedis<string>["getClient"]>>;

/** The part of node-redis' client the store drives itself. */
interface Connection {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: "connect", listener: () => void): unknown;
  off(event: "connect", listener: () => void): unknown;
}

interface Timing {
  connectTimeoutMs: number;
  maxReconnectDelayMs: number;
  closeTimeoutMs: number;
}

// node-redis reconnects in the background on timers that nothing can cancel, so a
// closed (or forgotten) store could keep the process alive while Redis is down.
// This store reconnects on demand instead: a call finds the connection gone, makes
// one attempt, and calls within the back-off after a failed attempt fail at once.
// Nothing runs between calls, so a store never holds the process beyond a call.
class RedisStore extends KeyvRedis<string> {
  readonly #timing: Timing;
  #attempt: Promise<void> | undefined;
  #failures = 0;
  #retryAt = 0;
  #lastError: unknown;
  #handshaking = false;
  #cutShort: Error | undefined;
  #closed = false;

  constructor(client: RedisClientOptions, timing: Timing) {
    super(client, { throwOnConnectError: true, throwOnErrors: true });
    this.#timing = timing;
  }

  get #connection(): Connection {
    return this.client as unknown as Connection;
  }

  override async getClient(): Promise<Client> {
    if (this.#closed) throw new Error("the Redis store was disconnected");
    if (this.#connection.isReady && this.#connection.isOpen) return this.client;
    if (!this.#attempt) {
      const wait = this.#retryAt - Date.now();
      if (wait > 0) {
        throw new Error(
          `Redis is unreachable (${errorMessage(this.#lastError)}); next connection attempt in ${wait} ms`,
          { cause: this.#lastError },
        );
      }
      this.#attempt = this.#connect().finally(() => {
        this.#attempt = undefined;
      });
    }
    await this.#attempt;
    return this.client;
  }

  // One attempt: TCP connect (bounded by node-redis' connectTimeout) and handshake
  // (bounded here: a server that accepts but never answers is dropped).
  async #connect(): Promise<void> {
    const connection = this.#connection;
    const onConnect = (): void => {
      this.#handshaking = true;
    };
    connection.on("connect", onConnect);
    const timer = setTimeout(() => {
      if (!this.#handshaking) return;
      this.#cutShort = new Error(
        `Redis accepted the connection but did not answer within ${this.#timing.connectTimeoutMs} ms (a TLS port needs rediss://)`,
      );
      connection.destroy();
    }, this.#timing.connectTimeoutMs);
    try {
      await connection.connect();
      this.#failures = 0;
      this.#retryAt = 0;
    } catch (thrown) {
      const error = this.#cutShort ?? thrown;
      this.#lastError = error;
      this.#retryAt = Date.now() + Math.min(50 * 2 ** this.#failures, this.#timing.maxReconnectDelayMs);
      this.#failures++;
      throw error;
    } finally {
      this.#handshaking = false;
      this.#cutShort = undefined;
      clearTimeout(timer);
      connection.off("connect", onConnect);
    }
    if (this.#closed) {
      connection.destroy();
      throw new Error("the Redis store was disconnected");
    }
  }

  // node-redis reports a handshake cut short as whatever broke inside it; say what happened.
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === "error" && this.#cutShort) return super.emit(event, this.#cutShort);
    return super.emit(event, ...args);
  }

  override async disconnect(force?: boolean): Promise<void> {
    this.#closed = true;
    const connection = this.#connection;
    if (this.#attempt) {
      // node-redis cannot stop a TCP connect under way (destroying the client then
      // would leave the socket behind); the attempt drops the connection when it completes.
      if (this.#handshaking) connection.destroy();
      return;
    }
    if (!connection.isOpen) return;
    if (force) {
      connection.destroy();
      return;
    }
    // A graceful close waits for replies that a hung server never sends; bound it.
    let timer: NodeJS.Timeout | undefined;
    const closed = super.disconnect().then(() => true);
    const late = new Promise<false>((done) => {
      timer = setTimeout(() => done(false), this.#timing.closeTimeoutMs);
    });
    const inTime = await Promise.race([closed, late]).finally(() => clearTimeout(timer));
    if (!inTime && connection.isOpen) connection.destroy();
  }
}

function invalid(url: string, why: string, cause?: unknown): McpRtError {
  return new McpRtError(
    "CONFIG_INVALID",
    `Redis store: "${redactUrl(url)}" ${why}; use redis://host:port (or rediss:// for TLS).`,
    { cause },
  );
}

/**
 * A Redis or Valkey store for `MCPToolCache`, through the official `@keyv/redis`
 * adapter (an optional peer dependency: `npm install @keyv/redis`). Several
 * agents on several machines can share one.
 *
 * Built to fail fast: nothing connects until the first use; commands issued
 * while Redis is down fail at once instead of queueing (so a read misses
 * immediately); a connection attempt gives up after `connectTimeoutMs`. A call
 * that finds the connection gone reconnects, and calls within a short back-off
 * after a failed attempt fail at once, so the cache works again as soon as
 * Redis is back. Nothing runs between calls: a store whose Redis is down never
 * keeps the process alive. An open connection does, so call `disconnect()` (or
 * `MCPToolCache.close()`) when done.
 *
 * @param url - `redis://[user:password@]host:port[/db]` or `rediss://` for TLS.
 * @throws McpRtError `CONFIG_INVALID` when `url` is not a usable `redis:` or `rediss:` URL.
 *
 * @example
 * ```ts
 * import { MCPToolCache } from "@mcp-rt/cache";
 * import { createRedisStore } from "@mcp-rt/cache/redis";
 * const cache = new MCPToolCache(createRedisStore("redis://cache.internal:6379"));
 * ```
 */
export function createRedisStore(url: string, options: RedisStoreOptions = {}): KeyvRedis<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw invalid(String(url), "is not a Redis URL", error);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") throw invalid(url, "is not a Redis URL");
  if (parsed.hostname === "") throw invalid(url, "names no host");
  const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
  const client: RedisClientOptions = {
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: false },
  };
  try {
    return new RedisStore(client, {
      connectTimeoutMs,
      maxReconnectDelayMs: options.maxReconnectDelayMs ?? 2000,
      closeTimeoutMs: options.closeTimeoutMs ?? 1000,
    });
  } catch (error) {
    throw invalid(url, `is not a usable Redis URL (${errorMessage(error)})`, error);
  }
}
