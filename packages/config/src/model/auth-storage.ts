/**
 * Where secrets live (API keys, OAuth sign-ins): a small key-value seam.
 * Implementations: `createFileAuthStorage` and `createMemoryAuthStorage` here,
 * `createAuthStorage(url)` (file, memory, Redis, OS keychain) in
 * `@mcp-rt/cache`; check others with `@mcp-rt/config/contract`.
 */
export interface AuthStorage {
  /** The value stored under `key`, or `undefined`. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key`, replacing what was there. */
  set(key: string, value: string): Promise<void>;
  /** Removes `key`; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases what the storage holds open (a Redis connection); optional. */
  close?(): Promise<void>;
}
