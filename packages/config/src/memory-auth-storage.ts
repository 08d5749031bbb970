import type { AuthStorage } from "./model/auth-storage.js";

/**
 * An {@link AuthStorage} that lives in this process only: for tests, and for
 * agents that must not write secrets anywhere (`--auth memory:`).
 *
 * @param entries what it starts with.
 */
export function createMemoryAuthStorage(entries: Record<string, string> = {}): AuthStorage {
  const map = new Map(Object.entries(entries));
  return {
    get: async (key) => map.get(key),
    set: async (key, value) => {
      if (typeof value !== "string")
        throw new TypeError(`auth storage values must be strings, got ${typeof value}`);
      map.set(key, value);
    },
    delete: async (key) => {
      map.delete(key);
    },
  };
}
