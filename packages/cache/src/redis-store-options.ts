/** Options of `createRedisStore` (from `@mcp-rt/cache/redis`). */
export interface RedisStoreOptions {
  /** Limit of one TCP connect attempt, in ms. @default 1000 */
  connectTimeoutMs?: number;
  /** Longest pause between reconnect attempts while Redis is down, in ms. @default 2000 */
  maxReconnectDelayMs?: number;
  /** How long `disconnect()` lets in-flight commands finish before it drops the socket, in ms. @default 1000 */
  closeTimeoutMs?: number;
}
