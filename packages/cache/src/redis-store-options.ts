/** Options of `createRedisStore` (from `@mcp-rt/cache/redis`). */
export interface RedisStoreOptions {
  /** Limit of one connection attempt (TCP connect, then the handshake), in ms. @default 1000 */
  connectTimeoutMs?: number;
  /**
   * While Redis is down, calls fail at once for a back-off after each failed
   * connection attempt (50 ms, doubling); this caps it, in ms. @default 2000
   */
  maxReconnectDelayMs?: number;
  /** How long `disconnect()` lets in-flight commands finish before it drops the socket, in ms. @default 1000 */
  closeTimeoutMs?: number;
}
