import type { AuthStorage } from "@mcp-rt/config";
import { createRedisStore } from "./redis-store.js";
import type { RedisStoreOptions } from "./redis-store-options.js";
import { toKeyv } from "./store-keyv.js";

/** Options of {@link createRedisAuthStorage}. */
export interface RedisAuthStorageOptions extends RedisStoreOptions {
  /** Prefix of every key, so one Redis can hold several fleets' sign-ins. @default "mcp-rt-auth" */
  namespace?: string;
}

/**
 * An {@link AuthStorage} in Redis or Valkey, on the same fail-fast store as
 * the tool cache (`createRedisStore`), so a fleet of agents shares API keys
 * and OAuth sign-ins: one sign-in, every machine. Entries are plain JSON under
 * `<namespace>:<key>`, without expiry. Secrets are stored as they are: use a
 * Redis that only the fleet can reach, with a password or TLS (`rediss://`).
 * Call `close()` when done, or the connection keeps the process alive.
 */
export function createRedisAuthStorage(url: string, options: RedisAuthStorageOptions = {}): AuthStorage {
  const { namespace = "mcp-rt-auth", ...storeOptions } = options;
  const store = createRedisStore(url, storeOptions);
  const { keyv } = toKeyv(store);
  const key = (name: string): string => `${namespace}:${name}`;
  return {
    get: async (name) => {
      const value: unknown = await keyv.get(key(name));
      return typeof value === "string" ? value : undefined;
    },
    set: async (name, value) => {
      if (typeof value !== "string")
        throw new TypeError(`auth storage values must be strings, got ${typeof value}`);
      await keyv.set(key(name), value);
    },
    delete: async (name) => {
      await keyv.delete(key(name));
    },
    close: () => store.disconnect(),
  };
}
